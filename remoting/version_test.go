package remoting

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersionNameMatchesJavaOrdinals(t *testing.T) {
	for v, want := range map[int32]string{
		0: "V3_0_0_SNAPSHOT", 15: "V3_0_0_FINAL", 16: "V3_0_1_SNAPSHOT", 210: "V3_9_9_SNAPSHOT",
		212: "V4_0_0_SNAPSHOT", 408: "V4_9_8_SNAPSHOT", 409: "V4_9_8", 479: "V5_3_3", 611: "V5_9_9",
		612: "HIGHER_VERSION", 5000: "HIGHER_VERSION",
	} {
		assert.Equal(t, want, VersionName(v), "version %d", v)
	}
}
