package logging

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// Options says where a server's log goes.
type Options struct {
	// Dir is the log directory, usually ${user.home}/logs/rocketmqlogs.
	Dir string
	// Name is the file's base name: "namesrv" or "broker".
	Name string
	// MaxSize rolls the file once it grows past this many bytes; 0 means
	// 100 MiB, Java's default for namesrv.log.
	MaxSize int64
	// MaxIndex is how many rolled files are kept; 0 means 10.
	MaxIndex int
	// Level is the lowest level written; the zero value is INFO.
	Level zapcore.Level
	// Console also writes every line to stderr.
	Console bool
	// Plain lays lines out as Java's side logs (stats.log) do, "time
	// LEVEL - message": no caller.
	Plain bool
}

// DefaultDir is ${userHome}/logs/rocketmqlogs.
func DefaultDir(userHome string) string {
	return filepath.Join(userHome, "logs", "rocketmqlogs")
}

// New opens the log file and returns a logger writing to it, and a close
// function that flushes and closes it.
func New(opts Options) (*zap.Logger, func() error, error) {
	if opts.MaxSize <= 0 {
		opts.MaxSize = 100 << 20
	}
	if opts.MaxIndex <= 0 {
		opts.MaxIndex = 10
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("logging: %w", err)
	}
	w, err := openRolling(filepath.Join(opts.Dir, opts.Name+".log"), opts.MaxSize, opts.MaxIndex)
	if err != nil {
		return nil, nil, err
	}
	enc := zapcore.NewConsoleEncoder(encoderConfig())
	cores := []zapcore.Core{zapcore.NewCore(enc, zapcore.AddSync(w), opts.Level)}
	if opts.Console {
		cores = append(cores, zapcore.NewCore(enc, zapcore.Lock(os.Stderr), opts.Level))
	}
	log := zap.New(zapcore.NewTee(cores...), zap.AddCaller())
	if opts.Plain {
		log = zap.New(zapcore.NewTee(cores...)).Named("-")
	}
	closeFn := func() error {
		_ = log.Sync()
		return w.Close()
	}
	return log, closeFn, nil
}

// encoderConfig lays lines out close to Java's
// "%d{yyy-MM-dd HH:mm:ss,GMT+8} %p %t - %m%n".
func encoderConfig() zapcore.EncoderConfig {
	return zapcore.EncoderConfig{
		TimeKey:          "time",
		LevelKey:         "level",
		NameKey:          "logger",
		CallerKey:        "caller",
		MessageKey:       "msg",
		StacktraceKey:    "stack",
		LineEnding:       zapcore.DefaultLineEnding,
		EncodeLevel:      zapcore.CapitalLevelEncoder,
		EncodeTime:       zapcore.TimeEncoderOfLayout("2006-01-02 15:04:05.000"),
		EncodeDuration:   zapcore.StringDurationEncoder,
		EncodeCaller:     zapcore.ShortCallerEncoder,
		ConsoleSeparator: " ",
	}
}

// BootLine prints a boot line where operators and scripts wait for it: on
// stdout, and in the log.
func BootLine(log *zap.Logger, line string) {
	fmt.Println(line)
	log.Info(line)
}

// Elapsed formats a duration in whole milliseconds, as Java's logs do.
func Elapsed(d time.Duration) string { return fmt.Sprintf("%dms", d.Milliseconds()) }
