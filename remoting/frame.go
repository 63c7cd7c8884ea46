package remoting

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Frame layout (wire format: do not change). All integers are big-endian.
//
//	offset  size  field
//	0       4     totalLength = 4 + headerLength + bodyLength (does not count itself)
//	4       4     headerWord  = serializeType<<24 | headerLength (low 24 bits)
//	8       H     header      JSON text or ROCKETMQ binary
//	8+H     B     body        opaque bytes, B = totalLength - 4 - H
const (
	// lengthFieldSize is the size of the leading totalLength field.
	lengthFieldSize = 4
	// headerWordSize is the size of the serialize-type/header-length word.
	headerWordSize = 4
	// frameOverhead is the fixed part of every frame before the header.
	frameOverhead = lengthFieldSize + headerWordSize
	// headerLengthMask keeps the low 24 bits of the header word.
	headerLengthMask = 0xFFFFFF

	// MaxFrameLength is Java's NettyDecoder limit (16 MiB), compared with
	// totalLength plus the 4-byte length field itself.
	MaxFrameLength = 16777216
)

// SerializeType is the header encoding, carried in the high byte of the
// header word.
type SerializeType byte

// Header encodings, numbered as Java's SerializeType codes.
const (
	SerializeJSON     SerializeType = 0
	SerializeRocketMQ SerializeType = 1
)

// String returns Java's enum name.
func (s SerializeType) String() string {
	switch s {
	case SerializeJSON:
		return "JSON"
	case SerializeRocketMQ:
		return "ROCKETMQ"
	}
	return fmt.Sprintf("SerializeType(%d)", byte(s))
}

// Errors returned by the codec. A caller that gets ErrNeedMore waits for more
// bytes; any other error means the peer's stream is broken and its connection
// must be closed.
var (
	ErrNeedMore         = errors.New("remoting: need more bytes")
	ErrFrameTooLong     = errors.New("remoting: frame exceeds maximum length")
	ErrMalformedFrame   = errors.New("remoting: malformed frame")
	ErrMalformedHeader  = errors.New("remoting: malformed header")
	ErrUnknownSerialize = errors.New("remoting: unknown serialize type")
)

// FrameLength reports the size of the whole frame at the start of buf,
// including its length field, or ErrNeedMore when fewer than 4 bytes are
// there. It rejects lengths Java's decoder rejects.
func FrameLength(buf []byte, maxFrame int) (int, error) {
	if len(buf) < lengthFieldSize {
		return 0, ErrNeedMore
	}
	total := int64(int32(binary.BigEndian.Uint32(buf)))
	if total < headerWordSize {
		return 0, fmt.Errorf("%w: total length %d", ErrMalformedFrame, total)
	}
	if total+lengthFieldSize > int64(maxFrame) {
		return 0, fmt.Errorf("%w: %d > %d", ErrFrameTooLong, total+lengthFieldSize, maxFrame)
	}
	return int(total) + lengthFieldSize, nil
}

// DecodeFrame decodes the first frame of buf. It returns the command, the
// number of bytes consumed, or ErrNeedMore when buf holds only part of a
// frame. The command owns copies of everything it holds: buf may be reused
// as soon as DecodeFrame returns.
func DecodeFrame(buf []byte, maxFrame int) (*Command, int, error) {
	n, err := FrameLength(buf, maxFrame)
	if err != nil {
		return nil, 0, err
	}
	if len(buf) < n {
		return nil, 0, ErrNeedMore
	}
	cmd, err := decodeFrameBody(buf[lengthFieldSize:n])
	if err != nil {
		return nil, 0, err
	}
	return cmd, n, nil
}

// decodeFrameBody decodes a frame without its length field.
func decodeFrameBody(frame []byte) (*Command, error) {
	word := binary.BigEndian.Uint32(frame)
	headerLen := int(word & headerLengthMask)
	if headerLen > len(frame)-headerWordSize {
		return nil, fmt.Errorf("%w: header length %d exceeds frame %d", ErrMalformedFrame, headerLen, len(frame))
	}
	header := frame[headerWordSize : headerWordSize+headerLen]
	cmd := &Command{}
	var err error
	switch st := SerializeType(word >> 24); st {
	case SerializeJSON:
		err = decodeJSONHeader(header, cmd)
	case SerializeRocketMQ:
		err = decodeBinaryHeader(header, cmd)
	default:
		return nil, fmt.Errorf("%w: %d", ErrUnknownSerialize, byte(st))
	}
	if err != nil {
		return nil, err
	}
	cmd.SerializeType = SerializeType(word >> 24)
	if body := frame[headerWordSize+headerLen:]; len(body) > 0 {
		cmd.Body = append([]byte(nil), body...)
	}
	return cmd, nil
}

// AppendFrame appends the whole frame of c (length, header word, header,
// body) to dst, encoding the header as c.SerializeType says.
func (c *Command) AppendFrame(dst []byte) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0, 0, 0, 0)
	var err error
	switch c.SerializeType {
	case SerializeJSON:
		dst = appendJSONHeader(dst, c)
	case SerializeRocketMQ:
		dst, err = appendBinaryHeader(dst, c)
	default:
		err = fmt.Errorf("%w: %d", ErrUnknownSerialize, byte(c.SerializeType))
	}
	if err != nil {
		return dst[:start], err
	}
	headerLen := len(dst) - start - frameOverhead
	if headerLen > headerLengthMask {
		return dst[:start], fmt.Errorf("%w: header of %d bytes", ErrFrameTooLong, headerLen)
	}
	dst = append(dst, c.Body...)
	total := len(dst) - start - lengthFieldSize
	binary.BigEndian.PutUint32(dst[start:], uint32(total))
	binary.BigEndian.PutUint32(dst[start+lengthFieldSize:], uint32(c.SerializeType)<<24|uint32(headerLen))
	return dst, nil
}

// AppendHeader appends the frame of c without its body, its length field
// already counting bodyLen more bytes that the caller writes right after it
// (a pull response sends stored records straight from the mapped files).
func (c *Command) AppendHeader(dst []byte, bodyLen int) ([]byte, error) {
	start := len(dst)
	body := c.Body
	c.Body = nil
	out, err := c.AppendFrame(dst)
	c.Body = body
	if err != nil {
		return out, err
	}
	total := binary.BigEndian.Uint32(out[start:]) + uint32(bodyLen)
	binary.BigEndian.PutUint32(out[start:], total)
	return out, nil
}
