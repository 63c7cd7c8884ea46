package auth

import (
	"math/big"
	"net"
	"slices"
	"strconv"
	"strings"
)

// Acl is a subject's policies (at most one per type).
type Acl struct {
	// Subject is the subject key, "User:name".
	Subject  string
	Policies []Policy
}

// Policy is a list of entries of one type.
type Policy struct {
	Type    PolicyType
	Entries []PolicyEntry
}

// PolicyEntry allows or denies actions on a resource pattern, from the
// source addresses listed (any address when none).
type PolicyEntry struct {
	Resource  Resource
	Actions   []Action
	SourceIPs []string
	Decision  Decision
}

// policy is getPolicy: the policy of a type, or nil.
func (a *Acl) policy(t PolicyType) *Policy {
	for i := range a.Policies {
		if a.Policies[i].Type == t {
			return &a.Policies[i]
		}
	}
	return nil
}

// Update is updatePolicy: each new policy joins the one of its type
// (entries of the same resource replaced, others added) or is added.
func (a *Acl) Update(policies []Policy) {
	for _, np := range policies {
		old := a.policy(np.Type)
		if old == nil {
			a.Policies = append(a.Policies, clonePolicy(np))
			continue
		}
		for _, ne := range np.Entries {
			if i := old.entry(ne.Resource); i >= 0 {
				old.Entries[i].Actions, old.Entries[i].SourceIPs, old.Entries[i].Decision = ne.Actions, ne.SourceIPs, ne.Decision
			} else {
				old.Entries = append(old.Entries, ne)
			}
		}
	}
}

// Delete is deletePolicy: the entry of the resource leaves the policy of
// the type, and an emptied policy leaves the ACL.
func (a *Acl) Delete(t PolicyType, r Resource) {
	p := a.policy(t)
	if p == nil {
		return
	}
	if i := p.entry(r); i >= 0 {
		p.Entries = slices.Delete(p.Entries, i, i+1)
	}
	if len(p.Entries) == 0 {
		a.Policies = slices.DeleteFunc(a.Policies, func(q Policy) bool { return q.Type == t })
	}
}

// entry is getEntry: the index of the entry for a resource, or -1.
func (p *Policy) entry(r Resource) int {
	return slices.IndexFunc(p.Entries, func(e PolicyEntry) bool { return e.Resource == r })
}

func clonePolicy(p Policy) Policy {
	p.Entries = slices.Clone(p.Entries)
	return p
}

// matchesActions is isMatchAction.
func (e *PolicyEntry) matchesActions(asked []Action) bool {
	if len(e.Actions) == 0 {
		return false
	}
	if slices.Contains(asked, ActionAny) {
		return true
	}
	for _, a := range asked {
		if slices.Contains(e.Actions, a) || slices.Contains(e.Actions, ActionAll) {
			return true
		}
	}
	return false
}

// matchesSource is isMatchEnvironment: no addresses listed matches all;
// a request without an address matches none of a list.
func (e *PolicyEntry) matchesSource(ip string) bool {
	if len(e.SourceIPs) == 0 {
		return true
	}
	if ip == "" {
		return false
	}
	for _, s := range e.SourceIPs {
		if ipInRange(ip, s) {
			return true
		}
	}
	return false
}

// ipInRange is IPAddressUtils.isIPInRange: an address equals the entry,
// or lies in its CIDR block (compared as unsigned numbers, as Java's
// BigInteger compares them, so an IPv4 address can fall in an IPv6
// block). An unparsable entry matches nothing (Java throws, and the
// request is refused all the same).
func ipInRange(ip, cidr string) bool {
	parts := strings.Split(cidr, "/")
	if len(parts) == 1 {
		return ip == cidr
	}
	if len(parts) != 2 {
		return false
	}
	base, addr := parseIP(parts[0]), parseIP(ip)
	prefix, err := strconv.Atoi(parts[1])
	if base == nil || addr == nil || err != nil || prefix < 0 || prefix > len(base)*8 {
		return false
	}
	bits := uint(len(base) * 8)
	mask := new(big.Int).Lsh(big.NewInt(-1), bits-uint(prefix))
	lower := new(big.Int).And(new(big.Int).SetBytes(base), mask)
	upper := new(big.Int).Add(lower, new(big.Int).Not(mask))
	n := new(big.Int).SetBytes(addr)
	return n.Cmp(lower) >= 0 && n.Cmp(upper) <= 0
}

// parseIP is the address's bytes: 4 for IPv4, 16 for IPv6.
func parseIP(s string) []byte {
	ip := net.ParseIP(s)
	if ip == nil {
		return nil
	}
	if v4 := ip.To4(); v4 != nil && !strings.Contains(s, ":") {
		return v4
	}
	return ip.To16()
}

// validIPOrCIDR is IPAddressUtils.isValidIPOrCidr.
func validIPOrCIDR(s string) bool {
	if net.ParseIP(s) != nil {
		return true
	}
	addr, pfx, ok := strings.Cut(s, "/")
	if !ok || strings.Contains(pfx, "/") {
		return false
	}
	ip := parseIP(addr)
	n, err := strconv.Atoi(pfx)
	return ip != nil && err == nil && n >= 0 && n <= len(ip)*8
}

// Context is one authorization question: may the user do these actions
// on this resource from this address (DefaultAuthorizationContext).
type Context struct {
	// Username is the request's AccessKey; HasUser is false when the
	// request carries none.
	Username string
	HasUser  bool
	Resource Resource
	Actions  []Action
	SourceIP string
}

// match is matchPolicyEntries: the custom policy's matching entries, else
// the default policy's, ordered by comparePolicyEntries; nil when none.
func (a *Acl) match(c Context) *PolicyEntry {
	var found []PolicyEntry
	for _, t := range []PolicyType{PolicyCustom, PolicyDefault} {
		if p := a.policy(t); p != nil {
			for _, e := range p.Entries {
				if e.Resource.Matches(c.Resource) && e.matchesActions(c.Actions) && e.matchesSource(c.SourceIP) {
					found = append(found, e)
				}
			}
		}
		if len(found) > 0 {
			break
		}
	}
	if len(found) == 0 {
		return nil
	}
	javaListSort(found, comparePolicyEntries)
	return &found[0]
}

// comparePolicyEntries is AclAuthorizationHandler.comparePolicyEntries,
// as 5.3.3 has it: an entry of type Any after the others; of one type and
// pattern, a longer prefix after a shorter; of one type but different
// patterns, the first always before (Java's branches test only the
// first entry's pattern); then Deny after Allow.
func comparePolicyEntries(o1, o2 PolicyEntry) int {
	r1, r2 := o1.Resource, o2.Resource
	c := 0
	switch {
	case r1.Type != r2.Type:
		if r1.Type == ResourceAny {
			c = 1
		}
		if r2.Type == ResourceAny {
			c = -1
		}
	case r1.Pattern == r2.Pattern:
		if r1.Pattern == PatternPrefixed {
			c = cmpInt(len(r1.Name), len(r2.Name))
		}
	default:
		if r1.Pattern == PatternLiteral || r1.Pattern == PatternPrefixed {
			c = -1
		}
	}
	if c != 0 {
		return c
	}
	switch {
	case o1.Decision == Deny:
		return 1
	case o2.Decision == Deny:
		return -1
	}
	return 0
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
