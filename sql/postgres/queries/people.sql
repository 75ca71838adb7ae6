-- name: CreatePerson :one
INSERT INTO people (name, email, email_key, age, address, created_at, updated_at)
VALUES (@name, @email, @email_key, @age, @address, @created_at, @updated_at)
RETURNING id;

-- name: GetPerson :one
SELECT * FROM people WHERE id = @id;

-- LockPerson holds the row until the transaction ends, so that concurrent
-- partial updates of one record apply one after the other.
-- name: LockPerson :one
SELECT * FROM people WHERE id = @id FOR UPDATE;

-- name: UpdatePerson :execrows
UPDATE people SET
    name = @name,
    email = @email,
    email_key = @email_key,
    age = @age,
    address = @address,
    updated_at = @updated_at
WHERE id = @id;

-- name: DeletePerson :execrows
DELETE FROM people WHERE id = @id;

-- CountPeople counts the records whose name or e-mail matches @pattern, an
-- ILIKE pattern whose literal % and _ are escaped with a backslash. Under the
-- "C" collation ILIKE folds ASCII letters only, as the port asks, whatever
-- the database's locale. The page of such records is built in the adapter,
-- because its ORDER BY is chosen by the caller; it repeats this WHERE clause.
-- name: CountPeople :one
SELECT count(*) FROM people
WHERE name COLLATE "C" ILIKE @pattern::text ESCAPE '\'
   OR email COLLATE "C" ILIKE @pattern::text ESCAPE '\';
