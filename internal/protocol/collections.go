package protocol

// The collections of Java's bodies as fastjson fills them: what each kind
// of field takes that the engine's Array and Object alone would not.
//
//	List<Bean>, Set<Bean>   an array, or one object as a one-element list;
//	                        a null (or []) element is null in Java, left
//	                        out here; a {"$ref":...} element is an object
//	                        met before, left out here too
//	Set<MessageQueue>       (mqSet) an array only
//	HashMap                 a null value is kept by Java, left out here
//	ConcurrentHashMap       a null value fails (the map refuses it): the
//	                        tables of the config documents and wrappers

import "github.com/rmqgo/rmqgo/internal/fastjson"

// decodeBean reads data as one bean: fn gets each property by its
// normalized name (fastjson.Property), positioned before the value; a null
// body reads nothing.
func decodeBean(data []byte, fn func(r *fastjson.Reader, prop string) error) error {
	return fastjson.Decode(data, func(r *fastjson.Reader) error {
		if r.Null() {
			return nil
		}
		return r.Object(func(key string) error { return fn(r, key) })
	})
}

// readList reads a List or Set of beans; null gives nil.
func readList[T any](r *fastjson.Reader, one func(*fastjson.Reader) (T, error)) ([]T, error) {
	if r.Null() {
		return nil, nil
	}
	if r.Peek() == '{' {
		v, err := one(r)
		return []T{v}, err
	}
	return readArray(r, one)
}

// readArray reads an array of beans only (no single object).
func readArray[T any](r *fastjson.Reader, one func(*fastjson.Reader) (T, error)) ([]T, error) {
	if r.Null() {
		return nil, nil
	}
	list := []T{}
	err := r.Array(func() error {
		if skipNullElement(r) {
			return nil
		}
		v, err := one(r)
		list = append(list, v)
		return err
	})
	return list, err
}

// skipNullElement consumes an element Java holds as null (null, "", [],
// a reference); it reports whether it did.
func skipNullElement(r *fastjson.Reader) bool {
	switch {
	case r.Null():
		return true
	case r.Peek() == '"' && r.EmptyString():
		return true
	case r.IsRef():
		_ = r.Skip()
		return true
	case r.Peek() == '[':
		return r.Skip() == nil
	}
	return false
}

// readScalars reads a List of numbers or strings: an array (null gives
// nil) whose null and {} elements are left out (Java holds them as null).
func readScalars[T any](r *fastjson.Reader, one func() (T, error)) ([]T, error) {
	if r.Null() {
		return nil, nil
	}
	list := []T{}
	err := r.Array(func() error {
		if r.Null() || r.Peek() == '{' && r.Skip() == nil {
			return nil
		}
		v, err := one()
		list = append(list, v)
		return err
	})
	return list, err
}

// readMap reads a HashMap of values keyed by strings; null gives nil, and
// null values are left out.
func readMap[T any](r *fastjson.Reader, one func(*fastjson.Reader) (T, error)) (map[string]T, error) {
	return readMapOf(r, one, false)
}

// readConcurrentMap reads a ConcurrentHashMap: a null value fails.
func readConcurrentMap[T any](r *fastjson.Reader, one func(*fastjson.Reader) (T, error)) (map[string]T, error) {
	return readMapOf(r, one, true)
}

func readMapOf[T any](r *fastjson.Reader, one func(*fastjson.Reader) (T, error), concurrent bool) (map[string]T, error) {
	if r.Null() {
		return nil, nil
	}
	m := map[string]T{}
	err := r.Map(func(key string) error {
		if concurrent && r.NullKey() {
			return r.Fail("null key in a ConcurrentHashMap")
		}
		if r.Null() {
			if concurrent {
				return r.Fail("null value in a ConcurrentHashMap")
			}
			return nil
		}
		v, err := one(r)
		m[key] = v
		return err
	})
	return m, err
}
