package conf

// lineReader splits ISO-8859-1 bytes into the logical lines of
// java.util.Properties (the JDK's LineReader): leading blanks of every
// natural line are skipped, blank and comment lines are dropped, and a line
// ending in an odd number of backslashes is joined with the next one, whose
// leading blanks are skipped too. A comment is recognised only at the start
// of a logical line, so '#' on a continuation line is text.
type lineReader struct {
	data []byte
	pos  int
	line int // 1-based number of the natural line at pos
}

// next returns the next logical line (escapes still in it, the continuation
// backslashes and line breaks removed) and the number of the natural line it
// starts on; ok is false at the end of the input.
func (lr *lineReader) next() (logical []rune, start int, ok bool) {
	for {
		lr.skipBlanks()
		if lr.pos >= len(lr.data) {
			return nil, 0, false
		}
		c := lr.data[lr.pos]
		if c == '\n' || c == '\r' {
			lr.breakLine()
			continue
		}
		if c == '#' || c == '!' {
			lr.skipToLineEnd()
			continue
		}
		start = lr.line
		return lr.readLogical(), start, true
	}
}

// readLogical reads from pos (a non-blank, non-comment character) to the end
// of the logical line.
func (lr *lineReader) readLogical() []rune {
	var buf []byte
	for {
		seg := lr.naturalRest()
		buf = append(buf, seg...)
		if !oddTrailingBackslashes(seg) {
			lr.breakLine()
			return latin1(buf)
		}
		buf = buf[:len(buf)-1] // drop the continuation backslash
		if lr.pos >= len(lr.data) {
			return latin1(buf)
		}
		lr.breakLine()
		lr.skipBlanks()
		if lr.pos >= len(lr.data) {
			return latin1(buf)
		}
		// A continuation line that is empty ends the logical line (its line
		// break is consumed by the next loop turn of next).
		if c := lr.data[lr.pos]; c == '\n' || c == '\r' {
			return latin1(buf)
		}
	}
}

// naturalRest returns the bytes from pos to the end of the natural line,
// leaving pos on the line break (or at the end).
func (lr *lineReader) naturalRest() []byte {
	from := lr.pos
	for lr.pos < len(lr.data) && lr.data[lr.pos] != '\n' && lr.data[lr.pos] != '\r' {
		lr.pos++
	}
	return lr.data[from:lr.pos]
}

func (lr *lineReader) skipBlanks() {
	for lr.pos < len(lr.data) {
		switch lr.data[lr.pos] {
		case ' ', '\t', '\f':
			lr.pos++
		default:
			return
		}
	}
}

func (lr *lineReader) skipToLineEnd() {
	lr.naturalRest()
	lr.breakLine()
}

// breakLine consumes one line break ("\n", "\r" or "\r\n") at pos, if any.
func (lr *lineReader) breakLine() {
	if lr.pos >= len(lr.data) {
		return
	}
	switch lr.data[lr.pos] {
	case '\r':
		lr.pos++
		if lr.pos < len(lr.data) && lr.data[lr.pos] == '\n' {
			lr.pos++
		}
	case '\n':
		lr.pos++
	default:
		return
	}
	lr.line++
}

func oddTrailingBackslashes(b []byte) bool {
	n := 0
	for i := len(b) - 1; i >= 0 && b[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}
