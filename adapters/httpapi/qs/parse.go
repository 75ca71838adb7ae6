package qs

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// The parser works on a small model of the JavaScript values qs builds,
// because the outcome depends on details Go's types do not have: arrays
// with holes, and containers qs tags through side channels ("overflowed"
// arrays and "conflict" wrappers). Values are string, *array or *object;
// nil stands for JavaScript's undefined.

// array is a JavaScript array. Only a window of it is stored: indices
// below base are holes, so an index such as a[999] costs one slot rather
// than a thousand, and nil elements inside the window are holes too. The
// window always ends at the array's length, since every array built here
// ends with a present element. Holes disappear when the result is exported,
// which is qs's final compaction.
//
// conflict marks the two-element array qs builds when a plain value meets
// an object under strictMerge; conflictIndex is its last used index.
type array struct {
	base          int
	elems         []any
	count         int // present elements
	conflict      bool
	conflictIndex float64
}

// length is JavaScript's a.length.
func (a *array) length() int {
	return a.base + len(a.elems)
}

// get returns element i and whether it is present (has.call(a, i)).
func (a *array) get(i int) (any, bool) {
	if i < a.base || i >= a.length() {
		return nil, false
	}
	v := a.elems[i-a.base]
	return v, v != nil
}

// set is `a[i] = v` for a non-nil v.
func (a *array) set(i int, v any) {
	switch {
	case len(a.elems) == 0:
		a.base = i
		a.elems = append(a.elems, v)
	case i >= a.length():
		for a.length() < i {
			a.elems = append(a.elems, nil)
		}
		a.elems = append(a.elems, v)
	case i < a.base:
		// Grow the window downwards by at least its own size, so that
		// indices arriving in descending order cost amortised O(1).
		newBase := max(0, min(i, a.base-len(a.elems)))
		grown := make([]any, a.length()-newBase)
		copy(grown[a.base-newBase:], a.elems)
		a.base, a.elems = newBase, grown
		a.elems[i-a.base] = v
	default:
		present := a.elems[i-a.base] != nil
		a.elems[i-a.base] = v
		if present {
			return
		}
	}
	a.count++
}

// push is `a[a.length] = v`.
func (a *array) push(v any) {
	a.set(a.length(), v)
}

// spread appends v as Array.prototype.concat does: the elements of an
// array (holes included), or v itself.
func (a *array) spread(v any) {
	src, ok := v.(*array)
	if !ok {
		a.push(v)
		return
	}
	if src.count == 0 {
		return
	}
	if a.length() == 0 {
		a.base = src.base
	} else {
		for range src.base {
			a.elems = append(a.elems, nil)
		}
	}
	a.elems = append(a.elems, src.elems...)
	a.count += src.count
}

// object is a JavaScript object. qs tags an object as overflowed when it
// stands in for an array that went past the array limit; further values
// are then appended under maxIndex+1 instead of combining into an array.
// A conflict wrapper that was turned into an object keeps its tag too, so
// later plain values are appended under conflictIndex+1.
//
// Most objects are built for a single key of a single parameter and then
// merged away, so one key is held inline and the map is only made for a
// second one.
type object struct {
	m             map[string]any // every key, once there are two or more
	k             string         // the only key, while m is nil and one is set
	v             any
	one           bool
	overflow      bool
	maxIndex      float64
	conflict      bool
	conflictIndex float64
}

func (o *object) get(k string) (any, bool) {
	if o.m != nil {
		v, ok := o.m[k]
		return v, ok
	}
	if o.one && o.k == k {
		return o.v, true
	}
	return nil, false
}

func (o *object) put(k string, v any) {
	switch {
	case o.m != nil:
		o.m[k] = v
	case !o.one:
		o.k, o.v, o.one = k, v, true
	case o.k == k:
		o.v = v
	default:
		o.m = map[string]any{o.k: o.v, k: v}
		o.k, o.v, o.one = "", nil, false
	}
}

func (o *object) size() int {
	switch {
	case o.m != nil:
		return len(o.m)
	case o.one:
		return 1
	}
	return 0
}

// all yields the keys and values in no particular order.
func (o *object) all(yield func(string, any) bool) {
	if o.m == nil {
		if o.one {
			yield(o.k, o.v)
		}
		return
	}
	for k, v := range o.m {
		if !yield(k, v) {
			return
		}
	}
}

// isContainer is JavaScript's `v && typeof v === 'object'` for parser values.
func isContainer(v any) bool {
	switch v.(type) {
	case *array, *object:
		return true
	}
	return false
}

type parser struct {
	arrayLimit int
	latin1     bool
}

// parseText is body-parser's extended query parser followed by qs.parse.
func parseText(s string, latin1 bool) (map[string]any, error) {
	if s == "" {
		return map[string]any{}, nil
	}
	// body-parser counts parameters before handing the body to qs and sizes
	// the array limit from that count, so a body can always list all its
	// parameters as elements of one array.
	count := strings.Count(s, "&") + 1
	if count > ParameterLimit {
		return nil, ErrTooManyParameters
	}
	p := parser{arrayLimit: max(minArrayLimit, count), latin1: latin1}

	keys, vals := p.parseValues(s, count)
	root := &object{}
	for i, key := range keys {
		if key == "" {
			continue
		}
		segments, err := splitKey(key)
		if err != nil {
			return nil, err
		}
		// Merging a container into an object updates that object in place
		// and returns it, so root stays the result.
		p.merge(root, p.parseObject(segments, vals[i]))
	}
	out := make(map[string]any, root.size())
	for k, v := range root.all {
		out[k] = export(v)
	}
	return out, nil
}

// parseValues splits the body into decoded keys and values. Values of keys
// seen more than once are combined into an array. The keys come back in the
// order JavaScript enumerates them from qs's intermediate object: keys that
// are array indices first, ascending, then the others in insertion order.
// That order decides how colliding keys merge later on.
func (p *parser) parseValues(s string, count int) ([]string, []any) {
	s = replaceBrackets(s)
	index := make(map[string]int, count)
	keys := make([]string, 0, count)
	vals := make([]any, 0, count)
	for part := range strings.SplitSeq(s, "&") {
		// A "]=" marks the end of a bracketed key, so an '=' inside the
		// brackets does not split the parameter.
		pos := strings.Index(part, "]=")
		if pos < 0 {
			pos = strings.IndexByte(part, '=')
		} else {
			pos++
		}
		var key string
		var val any
		if pos < 0 {
			key = decodeComponent(part, p.latin1)
			val = ""
		} else {
			key = decodeComponent(part[:pos], p.latin1)
			val = decodeComponent(part[pos+1:], p.latin1)
		}
		if i, ok := index[key]; ok {
			vals[i] = p.combine(vals[i], val)
			continue
		}
		index[key] = len(keys)
		keys = append(keys, key)
		vals = append(vals, val)
	}

	type indexed struct {
		n   float64
		pos int
	}
	var numeric []indexed
	for i, k := range keys {
		if n, ok := jsIndex(k); ok && n <= 1<<32-2 {
			numeric = append(numeric, indexed{n, i})
		}
	}
	if len(numeric) == 0 {
		return keys, vals
	}
	slices.SortFunc(numeric, func(a, b indexed) int { return cmp.Compare(a.n, b.n) })
	isNumeric := make(map[int]bool, len(numeric))
	orderedKeys := make([]string, 0, len(keys))
	orderedVals := make([]any, 0, len(vals))
	for _, e := range numeric {
		isNumeric[e.pos] = true
		orderedKeys = append(orderedKeys, keys[e.pos])
		orderedVals = append(orderedVals, vals[e.pos])
	}
	for i := range keys {
		if !isNumeric[i] {
			orderedKeys = append(orderedKeys, keys[i])
			orderedVals = append(orderedVals, vals[i])
		}
	}
	return orderedKeys, orderedVals
}

// splitKey splits a key like "a[b][c[]]" into "a", "[b]", "[c[]]". Bracket
// groups nest, text between groups is ignored, and an unterminated group
// becomes one literal segment wrapped in an extra pair of brackets ("a[b"
// gives "a", "[[b]"). More than MaxDepth groups is an error because Express
// runs qs with strictDepth.
func splitKey(key string) ([]string, error) {
	segments := make([]string, 0, 4)
	open := strings.IndexByte(key, '[')
	parent := key
	if open >= 0 {
		parent = key[:open]
	}
	if parent != "" {
		segments = append(segments, parent)
	}
	for collected := 0; open >= 0 && collected < MaxDepth; collected++ {
		level := 1
		end := -1
		for i := open + 1; i < len(key); i++ {
			if key[i] == '[' {
				level++
			} else if key[i] == ']' {
				level--
				if level == 0 {
					end = i
					break
				}
			}
		}
		if end < 0 {
			return append(segments, "["+key[open:]+"]"), nil
		}
		segments = append(segments, key[open:end+1])
		next := strings.IndexByte(key[end+1:], '[')
		if next < 0 {
			open = -1
		} else {
			open = end + 1 + next
		}
	}
	if open >= 0 {
		return nil, ErrTooDeep
	}
	return segments, nil
}

// parseObject builds the value for one key from its segments, innermost
// first: "[]" wraps the value in an array, a small canonical index makes a
// sparse array, a large one an overflowed object, anything else an object
// with that key. A "__proto__" segment yields an empty object, since qs
// refuses to assign it.
func (p *parser) parseObject(segments []string, leaf any) any {
	for i := len(segments) - 1; i >= 0; i-- {
		root := segments[i]
		if root == "[]" {
			if o, ok := leaf.(*object); ok && o.overflow {
				continue
			}
			leaf = p.combine(&array{}, leaf)
			continue
		}
		obj := &object{}
		clean := root
		bracketed := len(root) >= 2 && root[0] == '[' && root[len(root)-1] == ']'
		if bracketed {
			clean = root[1 : len(root)-1]
		}
		if n, ok := jsIndex(clean); ok && bracketed {
			if n < float64(p.arrayLimit) {
				arr := &array{}
				arr.set(int(n), leaf)
				leaf = arr
				continue
			}
			obj.put(clean, leaf)
			obj.overflow = true
			obj.maxIndex = n
		} else if clean != "__proto__" {
			obj.put(clean, leaf)
		}
		leaf = obj
	}
	return leaf
}

// combine is qs's utils.combine: [].concat(a, b), turned into an overflowed
// object once its length passes the array limit, or appended to a when a
// already is an overflowed object. The caller must not use a afterwards,
// since it may be reused.
func (p *parser) combine(a, b any) any {
	if o, ok := a.(*object); ok && o.overflow {
		if barr, ok := b.(*array); ok {
			// The elements are spread one level, like concat would.
			for k := range barr.length() {
				o.maxIndex++
				if v, ok := barr.get(k); ok {
					o.put(jsNumber(o.maxIndex), v)
				}
			}
			return o
		}
		o.maxIndex++
		o.put(jsNumber(o.maxIndex), b)
		return o
	}
	arr, ok := a.(*array)
	if !ok {
		arr = &array{}
		arr.push(a)
	}
	arr.spread(b)
	return p.limit(arr)
}

// limit returns arr, or an overflowed object in its place when its length
// (holes included) passes the array limit.
func (p *parser) limit(arr *array) any {
	if arr.length() > p.arrayLimit {
		return overflowed(arr, float64(arr.length()-1))
	}
	return arr
}

// overflowed converts arr to an overflowed object with the given highest
// index.
func overflowed(arr *array, maxIndex float64) *object {
	o := arrayToObject(arr)
	o.overflow = true
	o.maxIndex = maxIndex
	return o
}

// arrayToObject converts an array to an object keyed by index, skipping
// holes.
func arrayToObject(arr *array) *object {
	o := &object{}
	if arr.count > 1 {
		o.m = make(map[string]any, arr.count)
	}
	for k, v := range arr.elems {
		if v != nil {
			o.put(strconv.Itoa(arr.base+k), v)
		}
	}
	return o
}

// pair is the two-element array qs builds when two values collide,
// subject to the array limit like any other array.
func (p *parser) pair(first, second any) any {
	arr := &array{}
	arr.push(first)
	arr.push(second)
	return p.limit(arr)
}

// merge is qs's utils.merge with strictMerge (the qs default): it folds the
// freshly parsed source into the accumulated target and returns the new
// target. Like the original, it updates target in place where it can.
func (p *parser) merge(target, source any) any {
	if source == nil || source == "" {
		// An undefined or empty-string source leaves the target alone, so
		// "a[b]=1&a=" keeps a as {b: "1"}.
		return target
	}

	if s, ok := source.(string); ok {
		switch t := target.(type) {
		case *array:
			// Holes do not count against the limit.
			if t.count >= p.arrayLimit {
				next := t.length()
				t.push(s)
				return overflowed(t, float64(next))
			}
			t.push(s)
			return t
		case *object:
			switch {
			case t.overflow:
				t.maxIndex++
				t.put(jsNumber(t.maxIndex), s)
				return t
			case t.conflict:
				t.conflictIndex++
				t.put(jsNumber(t.conflictIndex), s)
				return t
			}
			// strictMerge: an object meeting a plain value becomes a
			// two-element array rather than gaining a key named after it,
			// and the array is tagged so that further plain values are
			// appended to it instead of nesting.
			wrapped := p.pair(t, s)
			if arr, ok := wrapped.(*array); ok {
				arr.conflict = true
				arr.conflictIndex = 1
			}
			return wrapped
		default:
			return p.pair(target, s)
		}
	}

	if !isContainer(target) {
		if so, ok := source.(*object); ok && so.overflow {
			// The plain target goes first and the overflowed indices shift
			// up by one, as if it had been unshifted onto the array.
			result := &object{overflow: true, maxIndex: so.maxIndex + 1}
			result.put("0", target)
			for _, k := range jsKeyOrder(so) {
				v, _ := so.get(k)
				result.put(jsNumber(jsParseInt(k)+1), v)
			}
			return result
		}
		combined := &array{}
		combined.push(target)
		combined.spread(source)
		return p.limit(combined)
	}

	var acc *object
	switch t := target.(type) {
	case *array:
		if sa, ok := source.(*array); ok {
			for k, item := range sa.elems {
				if item == nil {
					continue
				}
				i := sa.base + k
				ti, found := t.get(i)
				switch {
				case !found:
					t.set(i, item)
				case isContainer(ti) && isContainer(item):
					merged := p.merge(ti, item)
					t.elems[i-t.base] = merged
				default:
					t.push(item)
				}
			}
			if t.count > p.arrayLimit {
				return overflowed(t, float64(t.length()-1))
			}
			return t
		}
		acc = arrayToObject(t)
		if t.conflict {
			// The wrapper may have grown past its last conflict, so later
			// conflicts continue after its last index.
			acc.conflict = true
			acc.conflictIndex = float64(t.length() - 1)
		}
	case *object:
		acc = t
	}

	var srcOverflow bool
	var srcMax float64
	visit := func(key string, value any) {
		if existing, ok := acc.get(key); ok {
			acc.put(key, p.merge(existing, value))
		} else {
			acc.put(key, value)
		}
		if srcOverflow && !acc.overflow {
			acc.overflow = true
			acc.maxIndex = maxNumericIndex(acc, srcMax)
		}
		if n, ok := jsIndex(key); ok {
			if acc.overflow && n > acc.maxIndex {
				acc.maxIndex = n
			}
			if acc.conflict && n > acc.conflictIndex {
				acc.conflictIndex = n
			}
		}
	}
	// The order of the source keys does not matter: each key is merged
	// independently and the index bookkeeping only keeps maxima.
	switch s := source.(type) {
	case *array:
		for k, v := range s.elems {
			if v != nil {
				visit(strconv.Itoa(s.base+k), v)
			}
		}
	case *object:
		srcOverflow, srcMax = s.overflow, s.maxIndex
		for k, v := range s.all {
			visit(k, v)
		}
	}
	return acc
}

// maxNumericIndex is the largest canonical integer key of o, or min if
// none is larger.
func maxNumericIndex(o *object, min float64) float64 {
	for k := range o.all {
		if n, ok := jsIndex(k); ok && n > min {
			min = n
		}
	}
	return min
}

// jsKeyOrder lists an object's keys in JavaScript's enumeration order as
// far as it can be known: array indices ascending, then the rest. Go maps
// do not remember insertion order, so the rest are sorted to stay
// deterministic; the only caller never sees such keys.
func jsKeyOrder(o *object) []string {
	keys := make([]string, 0, o.size())
	for k := range o.all {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		na, oka := jsIndex(a)
		nb, okb := jsIndex(b)
		oka = oka && na <= 1<<32-2
		okb = okb && nb <= 1<<32-2
		switch {
		case oka && okb:
			return cmp.Compare(na, nb)
		case oka:
			return -1
		case okb:
			return 1
		}
		return strings.Compare(a, b)
	})
	return keys
}

// export converts the parser's model into the package's public value types,
// dropping array holes on the way (qs's compact step).
func export(v any) any {
	switch t := v.(type) {
	case *array:
		out := make([]any, 0, t.count)
		for _, e := range t.elems {
			if e != nil {
				out = append(out, export(e))
			}
		}
		return out
	case *object:
		out := make(map[string]any, t.size())
		for k, e := range t.all {
			out[k] = export(e)
		}
		return out
	default:
		return v
	}
}
