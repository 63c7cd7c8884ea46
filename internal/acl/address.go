package acl

// Remote address patterns of plain_acl.yml (whiteRemoteAddress and
// globalWhiteRemoteAddresses), RemoteAddressStrategyFactory's forms:
//
//	""                        matches nothing
//	*   *.*.*.*   *:*:*:*:*:*:*:*   matches every address
//	192.168.1.{1,2,3}         the listed last parts (IPv6: 1:2::{a,b})
//	192.168.1.1,192.168.1.2   the listed addresses
//	192.168.1.*  192.168.*  192.168.1.10-20  192.168.1-9.*
//	                          a range in one part, everything after it
//	                          (IPv6: 1:2::ab-ff, 1:2::ab-ff:*, 1:2::*)
//	192.168.1.1  ::1          one address
//
// A pattern that is none of these is refused with Java's message.

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// matcher tells whether a client's address (no port) matches a pattern.
type matcher func(addr string) bool

func matchNone(string) bool { return false }
func matchAll(string) bool  { return true }

// errNetaddress is Java's refusal of an address of no known form.
func errNetaddress(addr string) error {
	//lint:ignore ST1005 Java's AclException message, verbatim (capitalized)
	return fmt.Errorf("Netaddress examine Exception netaddress is %s", addr)
}

// errNetaddressScope is Java's refusal of an address part out of range.
func errNetaddressScope(addr string) error {
	//lint:ignore ST1005 Java's AclException message, verbatim (capitalized)
	return fmt.Errorf("Netaddress examine scope Exception netaddress is %s", addr)
}

// compileAddress is getRemoteAddressStrategy.
func compileAddress(pattern string) (matcher, error) {
	switch {
	case strings.TrimSpace(pattern) == "":
		return matchNone, nil
	case pattern == "*" || pattern == "*.*.*.*" || pattern == "*:*:*:*:*:*:*:*":
		return matchAll, nil
	case strings.HasSuffix(pattern, "}"):
		return compileBraces(pattern)
	case strings.Contains(pattern, ","):
		return compileList(splitNonEmpty(pattern, ","))
	case strings.ContainsAny(pattern, "*-"):
		return compileRange(pattern)
	}
	return compileOne(pattern)
}

// compileBraces is the {a,b,c} form of the last part.
func compileBraces(pattern string) (matcher, error) {
	sep := "."
	if strings.Contains(pattern, ":") {
		sep = ":"
	}
	parts := splitNonEmpty(pattern, sep)
	last := parts[len(parts)-1]
	if sep == "." && len(parts) < 4 {
		return nil, fmt.Errorf("MultipleRemoteAddressStrategy has got a/some wrong format IP(s) ")
	}
	if !strings.HasPrefix(last, "{") {
		return nil, fmt.Errorf("MultipleRemoteAddressStrategy netaddress examine scope Exception netaddress")
	}
	head := pattern[:strings.Index(pattern, "{")]
	var addrs []string
	for _, p := range splitNonEmpty(last[1:len(last)-1], ",") {
		addrs = append(addrs, head+p)
	}
	return compileList(addrs)
}

// compileList is MultipleRemoteAddressStrategy.
func compileList(addrs []string) (matcher, error) {
	set := map[string]bool{}
	for _, a := range addrs {
		switch {
		case isIPv4(a):
			set[a] = true
		case isIPv6(a):
			set[expandIPv6(a, 8)] = true
		default:
			return nil, errNetaddress(a)
		}
	}
	return func(addr string) bool {
		if isIPv6(addr) {
			addr = expandIPv6(addr, 8)
		}
		return set[addr]
	}, nil
}

// compileOne is OneRemoteAddressStrategy.
func compileOne(pattern string) (matcher, error) {
	if !isIPv4(pattern) && !isIPv6(pattern) {
		return nil, errNetaddress(pattern)
	}
	want := strings.ToUpper(expandIPv6(pattern, 8))
	return func(addr string) bool { return strings.ToUpper(expandIPv6(addr, 8)) == want }, nil
}

// compileRange is RangeRemoteAddressStrategy: the first part that is * or
// a-b gives the range, the parts before it the head.
func compileRange(pattern string) (matcher, error) {
	if strings.Contains(pattern, ":") {
		return compileRangeV6(pattern)
	}
	parts := strings.Split(pattern, ".")
	for i := 1; i < len(parts) && i <= 3; i++ {
		lo, hi, ok, err := partRange(parts[i], 10, 255)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		for _, p := range parts[:i] {
			if n, err := strconv.Atoi(strings.TrimSpace(p)); err != nil || n < 0 || n > 255 {
				return nil, errNetaddressScope(pattern)
			}
		}
		head := strings.Join(trimAll(parts[:i]), ".") + "."
		index := i
		return func(addr string) bool {
			if !isIPv4(addr) || !strings.HasPrefix(addr, head) {
				return false
			}
			rest := strings.Split(addr[len(head):], ".")
			if len(rest) != 4-index {
				return false
			}
			n, err := strconv.Atoi(rest[0])
			return err == nil && n >= lo && n <= hi
		}, nil
	}
	return matchNone, nil
}

// compileRangeV6 is the IPv6 side of RangeRemoteAddressStrategy.
func compileRangeV6(pattern string) (matcher, error) {
	if err := checkRangeV6(pattern); err != nil {
		return nil, err
	}
	parts := strings.Split(pattern, ":")
	for i := 1; i < len(parts); i++ {
		lo, hi, ok, err := partRange(parts[i], 16, 0xffff)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		head := prefixV6(pattern)
		index := len(splitNonEmpty(head, ":"))
		return func(addr string) bool {
			if !isIPv6(addr) {
				return false
			}
			full := strings.ToUpper(expandIPv6(addr, 8))
			if !strings.HasPrefix(full, head) || len(full) < 5*index+4 {
				return false
			}
			n, err := strconv.ParseInt(full[5*index:5*index+4], 16, 32)
			return err == nil && int(n) >= lo && int(n) <= hi
		}, nil
	}
	return matchNone, nil
}

// checkRangeV6 is IPv6AddressCheck: * only last, a range in the last
// part or the one before a last *.
func checkRangeV6(p string) error {
	bad := errNetaddressScope(p)
	star, minus := strings.Index(p, "*"), strings.Index(p, "-")
	if star > -1 && star != len(p)-1 {
		return bad
	}
	if minus > -1 {
		last := strings.LastIndex(p, ":")
		if star == -1 && minus <= last || star > -1 && minus <= strings.LastIndex(p[:last], ":") {
			return bad
		}
	}
	return nil
}

// prefixV6 is v6ipProcess: the expanded parts before the range.
func prefixV6(p string) string {
	star, minus := strings.Contains(p, "*"), strings.Contains(p, "-")
	switch {
	case star && minus:
		last := strings.LastIndex(p, ":")
		return expandIPv6(p[:strings.LastIndex(p[:last], ":")], 6)
	case !star && !minus:
		return expandIPv6(p, 8)
	}
	return expandIPv6(p[:strings.LastIndex(p, ":")], 7)
}

// partRange reads one part as * or lo-hi; ok is false for a plain part.
func partRange(part string, base, top int) (lo, hi int, ok bool, err error) {
	part = strings.TrimSpace(part)
	switch {
	case part == "*":
		return 0, top, true, nil
	case strings.Contains(part, "-"):
		if strings.HasPrefix(part, "-") {
			return 0, 0, false, fmt.Errorf("RangeRemoteAddressStrategy netaddress examine scope Exception value %s ", part)
		}
		a, b, _ := strings.Cut(part, "-")
		l, err1 := strconv.ParseInt(a, base, 32)
		h, err2 := strconv.ParseInt(b, base, 32)
		if err1 != nil || err2 != nil {
			return 0, 0, false, fmt.Errorf("RangeRemoteAddressStrategy netaddress examine scope Exception value %s ", part)
		}
		if l < 0 || h > int64(top) || l > h {
			return 0, 0, false, fmt.Errorf("RangeRemoteAddressStrategy netaddress examine scope Exception start is %d , end is %d", l, h)
		}
		return int(l), int(h), h > 0, nil
	}
	return 0, 0, false, nil
}

// expandIPv6 is expandIP: "::" filled out to part groups, each padded to
// four hex digits, upper case; an IPv4 address comes back as it is.
func expandIPv6(addr string, part int) string {
	if !strings.Contains(addr, ":") {
		return addr
	}
	addr = strings.ToUpper(addr)
	if pad := part - strings.Count(addr, ":"); pad > 0 {
		addr = strings.Replace(addr, "::", strings.Repeat(":", pad+1), 1)
	}
	groups := strings.Split(addr, ":")
	for i, g := range groups {
		if len(g) < 4 {
			groups[i] = strings.Repeat("0", 4-len(g)) + g
		}
	}
	return strings.Join(groups, ":")
}

func isIPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

func isIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6()
}

func splitNonEmpty(s, sep string) []string {
	var out []string
	for _, p := range strings.Split(s, sep) {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func trimAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.TrimSpace(s)
	}
	return out
}
