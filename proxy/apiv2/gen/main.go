package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

// The plugins, pinned: the go run of each is the reproducible build.
var plugins = []struct{ pkg, param string }{
	{"google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12", ""},
	{"google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.5.1", "require_unimplemented_servers=true"},
}

// goPackage is where the generated code lives.
const goPackage = "github.com/rmqgo/rmqgo/proxy/apiv2;apiv2"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen <descriptors.binpb> <out dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(descriptors, out string) error {
	data, err := os.ReadFile(descriptors)
	if err != nil {
		return err
	}
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(data, set); err != nil {
		return fmt.Errorf("%s: %w", descriptors, err)
	}
	var generate, mappings []string
	for _, f := range set.File {
		if strings.HasPrefix(f.GetName(), "apache/rocketmq/") {
			generate = append(generate, f.GetName())
			mappings = append(mappings, "M"+f.GetName()+"="+goPackage)
		}
	}
	for _, p := range plugins {
		params := append([]string{"paths=source_relative"}, mappings...)
		if p.param != "" {
			params = append(params, p.param)
		}
		req := &pluginpb.CodeGeneratorRequest{FileToGenerate: generate, Parameter: proto.String(strings.Join(params, ",")),
			ProtoFile: set.File}
		if err := runPlugin(p.pkg, req, out); err != nil {
			return err
		}
	}
	return nil
}

// runPlugin runs one plugin on the request and writes its files, flat,
// into out.
func runPlugin(pkg string, req *pluginpb.CodeGeneratorRequest, out string) error {
	in, err := proto.Marshal(req)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "run", pkg)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stderr = os.Stderr
	raw, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	resp := &pluginpb.CodeGeneratorResponse{}
	if err := proto.Unmarshal(raw, resp); err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	if resp.Error != nil {
		return fmt.Errorf("%s: %s", pkg, resp.GetError())
	}
	for _, f := range resp.File {
		path := filepath.Join(out, filepath.Base(f.GetName()))
		if err := os.WriteFile(path, []byte(f.GetContent()), 0o644); err != nil {
			return err
		}
		fmt.Println("gen: wrote", path)
	}
	return nil
}
