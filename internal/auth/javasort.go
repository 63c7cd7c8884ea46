package auth

// javaListSort sorts as Java's List.sort does a list shorter than 32
// (TimSort's mini-TimSort: the leading run, reversed when strictly
// descending, then binary insertion of the rest). comparePolicyEntries is
// not a consistent order, so which entry comes first depends on the
// algorithm; this one gives Java's answer. Longer lists (one request
// matching 32 entries or more) are sorted the same way, which is
// Java's answer whenever the order is consistent.
func javaListSort[T any](a []T, cmp func(x, y T) int) {
	if len(a) < 2 {
		return
	}
	run := countRunAndMakeAscending(a, cmp)
	binarySort(a, run, cmp)
}

// countRunAndMakeAscending is TimSort.countRunAndMakeAscending.
func countRunAndMakeAscending[T any](a []T, cmp func(x, y T) int) int {
	hi, runHi := len(a), 1
	if runHi == hi {
		return 1
	}
	if cmp(a[runHi], a[0]) < 0 {
		runHi++
		for runHi < hi && cmp(a[runHi], a[runHi-1]) < 0 {
			runHi++
		}
		for i, j := 0, runHi-1; i < j; i, j = i+1, j-1 {
			a[i], a[j] = a[j], a[i]
		}
		return runHi
	}
	runHi++
	for runHi < hi && cmp(a[runHi], a[runHi-1]) >= 0 {
		runHi++
	}
	return runHi
}

// binarySort is TimSort.binarySort from start.
func binarySort[T any](a []T, start int, cmp func(x, y T) int) {
	for ; start < len(a); start++ {
		pivot := a[start]
		left, right := 0, start
		for left < right {
			mid := int(uint(left+right) >> 1)
			if cmp(pivot, a[mid]) < 0 {
				right = mid
			} else {
				left = mid + 1
			}
		}
		copy(a[left+1:start+1], a[left:start])
		a[left] = pivot
	}
}
