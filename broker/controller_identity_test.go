package broker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBrokerIdentityFilesAreJavasBytes(t *testing.T) {
	dir := t.TempDir()
	f := identityFiles{path: filepath.Join(dir, "brokerIdentity")}
	_, ok := f.load()
	assert.False(t, ok, "no file yet")

	temp := brokerIdentity{cluster: "DefaultCluster", name: "broker-a", id: 2, checkCode: "127.0.0.1:30911;1700000000000"}
	require.NoError(t, f.storeTemp(temp))
	data, err := os.ReadFile(f.tempPath())
	require.NoError(t, err)
	assert.Equal(t, "DefaultCluster#broker-a#2#127.0.0.1:30911;1700000000000", string(data), "no newline")
	back, ok := f.loadTemp()
	require.True(t, ok)
	assert.Equal(t, temp, back)

	require.NoError(t, f.store(brokerIdentity{cluster: "DefaultCluster", name: "broker-a", id: 2}))
	data, err = os.ReadFile(f.path)
	require.NoError(t, err)
	assert.Equal(t, "DefaultCluster#broker-a#2", string(data))
	assert.NoFileExists(t, f.tempPath(), "the temp file goes once the id is confirmed")
	assert.NoFileExists(t, f.path+".bak", "Java leaves no .bak: the old file is deleted first")

	require.NoError(t, os.WriteFile(f.path, []byte("DefaultCluster#broker-a#x"), 0o644))
	_, ok = f.load()
	assert.False(t, ok, "an id that does not parse reads as no file")
}
