package remoting

import (
	"strconv"
	"sync"
)

// The client version numbers of MQVersion.Version (5.3.3): a request's
// version field is an ordinal of that enum, which lists, in order,
//
//	V3_0_0_SNAPSHOT, V3_0_0_ALPHA1, V3_0_0_BETA1 .. BETA5,
//	V3_0_0_BETA6_SNAPSHOT, V3_0_0_BETA6 .. V3_0_0_BETA9_SNAPSHOT,
//	V3_0_0_BETA9, V3_0_0_FINAL                              (16 names)
//	then Vx_y_z_SNAPSHOT, Vx_y_z for 3.0.1 .. 3.0.15, 3.1.0 .. 3.2.9,
//	3.3.1 .. 3.9.9 (z from 1), 4.0.0 .. 5.9.9
//	and HIGHER_VERSION last.
//
// so V4_9_8 is 409 and V5_3_3 is 479.

var (
	versionNamesOnce sync.Once
	versionNames     []string
)

// VersionName is MQVersion.getVersionDesc: the enum name of a version
// number, HIGHER_VERSION for any number past the last.
func VersionName(v int32) string {
	versionNamesOnce.Do(buildVersionNames)
	if v < 0 {
		return strconv.Itoa(int(v))
	}
	return versionNames[min(int(v), len(versionNames)-1)]
}

// ParseVersion is MQVersion.Version.valueOf(name).ordinal(): the number
// of a version's enum name, false for a name that is none.
func ParseVersion(name string) (int32, bool) {
	versionNamesOnce.Do(buildVersionNames)
	for i, n := range versionNames {
		if n == name {
			return int32(i), true
		}
	}
	return 0, false
}

func buildVersionNames() {
	names := []string{"V3_0_0_SNAPSHOT", "V3_0_0_ALPHA1"}
	for b := 1; b <= 9; b++ {
		beta := "V3_0_0_BETA" + strconv.Itoa(b)
		if b >= 6 {
			names = append(names, beta+"_SNAPSHOT")
		}
		names = append(names, beta)
	}
	names = append(names, "V3_0_0_FINAL")
	add := func(x, y, from, to int) {
		for z := from; z <= to; z++ {
			n := "V" + strconv.Itoa(x) + "_" + strconv.Itoa(y) + "_" + strconv.Itoa(z)
			names = append(names, n+"_SNAPSHOT", n)
		}
	}
	add(3, 0, 1, 15)
	add(3, 1, 0, 9)
	add(3, 2, 0, 9)
	for y := 3; y <= 9; y++ {
		add(3, y, 1, 9)
	}
	for x := 4; x <= 5; x++ {
		for y := 0; y <= 9; y++ {
			add(x, y, 0, 9)
		}
	}
	versionNames = append(names, "HIGHER_VERSION")
}
