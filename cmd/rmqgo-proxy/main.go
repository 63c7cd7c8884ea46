package main

import "github.com/rmqgo/rmqgo/cmd/internal/proxycmd"

func main() { proxycmd.Main() }
