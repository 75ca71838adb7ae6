package httpapi

import (
	"io"
	"net"
	"sync/atomic"
	"time"
)

// Bounds of a lingering close: how long the server keeps reading what a
// client still sends after a refusal, and how much of it.
const (
	lingerTimeout = 5 * time.Second
	lingerBytes   = 64 << 20
)

// Serve answers the connections ln accepts until the app shuts down. Its
// connections linger when fasthttp closes them after refusing a request, so
// that a client still sending a body reads the refusal instead of a reset.
func (s *Server) Serve(ln net.Listener) error {
	return s.app.Listener(lingeringListener{ln})
}

// lingeringListener hands out lingeringConns.
type lingeringListener struct{ net.Listener }

func (l lingeringListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &lingeringConn{Conn: c}, nil
}

// lingeringConn closes, once linger is set, the way Apache's lingering
// close does. fasthttp refuses a body over the limit by its Content-Length,
// answers and closes the connection while the client may still be sending
// the body. A socket closed with unread data makes the kernel send a reset,
// which can reach the client before it has read the answer and discard it.
// So the connection is first closed for writing, which tells the client the
// answer is complete, and what the client still sends is read and
// discarded until it closes its side, within lingerTimeout and lingerBytes.
type lingeringConn struct {
	net.Conn
	linger atomic.Bool
}

func (c *lingeringConn) Close() error {
	if !c.linger.Load() {
		return c.Conn.Close()
	}
	if hc, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		_ = hc.CloseWrite()
	}
	_ = c.Conn.SetReadDeadline(time.Now().Add(lingerTimeout))
	_, _ = io.CopyN(io.Discard, c.Conn, lingerBytes)
	return c.Conn.Close()
}

// NetConn returns the connection c wraps, which the event streams write
// to directly once they left fasthttp.
func (c *lingeringConn) NetConn() net.Conn { return c.Conn }
