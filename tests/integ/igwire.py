"""The control protocol's framing (docs/design.md, "Wire protocol") for the
raw connections of the loopback tests; ig_init puts this directory on
PYTHONPATH.  Not a test itself: ctest runs only tests/integ/*.sh."""
import json
import socket
import struct
import time

HELLO, WELCOME, BUSY, ERROR, SETUP = 1, 2, 3, 4, 5
XPORT, READY, SYNC, SYNCED = 6, 7, 8, 9
BYE, AUTH, AUTH_REPLY = 14, 17, 18
TRY, TRIED, UNTRY, UNTRIED = 19, 20, 21, 22
RAILS, RAILS_INFO, VERBS_EP = 23, 24, 25


def hdr(ver, typ, length):
    return b"IBGP" + struct.pack(">HHI", ver, typ, length)


def msg(typ, body, ver=1):
    b = json.dumps(body, separators=(",", ":")).encode()
    return hdr(ver, typ, len(b)) + b


def connect(port, timeout=5):
    return socket.create_connection(("127.0.0.1", port), timeout=timeout)


def recv_exact(s, n):
    """n bytes, or None when the peer closed first."""
    data = b""
    while len(data) < n:
        b = s.recv(n - len(data))
        if not b:
            return None
        data += b
    return data


def recv_msg(s, secs=None):
    """(type, body): (None, None) on EOF before a header, body None when
    the body was cut short."""
    if secs is not None:
        s.settimeout(secs)
    h = recv_exact(s, 12)
    if h is None:
        return None, None
    _, typ, ln = struct.unpack(">HHI", h[4:12])
    body = recv_exact(s, ln)
    return typ, None if body is None else json.loads(body)


def parse_msgs(data):
    """The whole messages at the start of data: [(version, type, body)]."""
    out = []
    while len(data) >= 12:
        magic, (ver, typ, ln) = data[:4], struct.unpack(">HHI", data[4:12])
        if magic != b"IBGP" or len(data) < 12 + ln:
            break
        out.append((ver, typ, json.loads(data[12:12 + ln])))
        data = data[12 + ln:]
    return out


def read_until_eof(s, secs):
    """(bytes received, seconds until EOF or reset, or None if still
    open after secs)."""
    t0, data = time.monotonic(), b""
    s.settimeout(0.05)
    while time.monotonic() - t0 < secs:
        try:
            b = s.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return data, time.monotonic() - t0
        if not b:
            return data, time.monotonic() - t0
        data += b
    return data, None


def fake_setup(portfile, secs=15):
    """A stand-in server's first steps for one TCP test: listens on
    127.0.0.1 (its port written to portfile), answers HELLO with WELCOME
    and SETUP with XPORT (a data port of its own, cookie 7), and takes the
    data connection and its 12-byte tag.  (control socket, data socket,
    SETUP body); READY and the rest are the caller's."""
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(4)
    dl = socket.socket()
    dl.bind(("127.0.0.1", 0))
    dl.listen(4)
    with open(portfile, "w") as f:
        f.write(str(ls.getsockname()[1]))
    c, _ = ls.accept()
    c.settimeout(secs)
    dl.settimeout(secs)
    recv_msg(c)
    si = {"hostname": "fake", "kernel": "6.1", "version": "0.0.1"}
    c.sendall(msg(WELCOME, {"sysinfo": si}))
    _, setup = recv_msg(c)
    c.sendall(msg(XPORT, {"port": dl.getsockname()[1], "cookie": 7}))
    d, _ = dl.accept()
    recv_exact(d, 12)
    return c, d, setup


def auth_mac(key, role, sn, cn):
    """A proof of docs/design.md, "Authentication": HMAC-SHA256(key,
    "ibgap-auth-1" NUL role NUL snonce NUL cnonce), as hex."""
    import hashlib
    import hmac
    m = b"ibgap-auth-1\0" + role + b"\0" + sn.encode() + b"\0" + cn.encode()
    return hmac.new(key, m, hashlib.sha256).hexdigest()


def session(port, key=None, host="127.0.0.1", timeout=10):
    """HELLO and, when the server asks (AUTH), the proof of key (bytes;
    None: ERROR "client has no key", as ibgap's client without
    --auth-file).  (socket, type, body) of the server's answer: WELCOME
    when the session started."""
    import os
    s = socket.create_connection((host, port), timeout=timeout)
    si = {"hostname": "igwire", "kernel": "k", "version": "0.1.0"}
    s.sendall(msg(HELLO, {"sysinfo": si}))
    typ, b = recv_msg(s)
    if typ != AUTH:
        return s, typ, b
    if key is None:
        s.sendall(msg(ERROR, {"message": "client has no --auth-file"}))
    else:
        cn = os.urandom(32).hex()
        s.sendall(msg(AUTH_REPLY, {"nonce": cn,
                                   "mac": auth_mac(key, b"client",
                                                   b["nonce"], cn)}))
    typ, b = recv_msg(s)
    return s, typ, b
