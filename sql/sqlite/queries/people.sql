-- name: CreatePerson :one
INSERT INTO people (name, email, email_key, age, address, created_at, updated_at)
VALUES (@name, @email, @email_key, @age, @address, @created_at, @updated_at)
RETURNING id;

-- name: GetPerson :one
SELECT * FROM people WHERE id = @id;

-- name: UpdatePerson :execrows
UPDATE people
SET name = @name,
    email = @email,
    email_key = @email_key,
    age = @age,
    address = @address,
    updated_at = @updated_at
WHERE id = @id;

-- name: DeletePerson :execrows
DELETE FROM people WHERE id = @id;

-- CountPeople applies the same filter as the list the adapter builds by hand:
-- an empty search matches everyone; otherwise the name or the e-mail must hold
-- it as a substring, compared through lower(), which folds ASCII letters only.
-- name: CountPeople :one
SELECT count(*) FROM people
WHERE CAST(@search AS TEXT) = ''
   OR instr(lower(name), lower(@search)) > 0
   OR instr(lower(email), lower(@search)) > 0;
