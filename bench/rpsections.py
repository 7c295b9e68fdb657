#!/usr/bin/env python3
"""rpsections.py FILE... - the sections of rank files and merged profiles
(doc/formats.md "The container") with their payload bytes; for CCT/NODE
also the node and metric-entry counts, for SYMS the symbol count.  What
grows when a run grows (issue 16, doc/performance.md "Profile size")."""
import struct, sys
for f in sys.argv[1:]:
    d = open(f, 'rb').read()
    o = 16; out = []
    while o + 16 <= len(d):
        cc, _, ln = struct.unpack_from('<4sIQ', d, o)
        extra = ''
        if cc in (b'NODE', b'CCT '):
            n, m, e = struct.unpack_from('<IIQ', d, o + 16)
            extra = '(nodes %d entries %d)' % (n, e)
        if cc == b'SYMS':
            extra = '(%d)' % struct.unpack_from('<I', d, o + 16)
        out.append('%s=%d%s' % (cc.decode(), ln, extra))
        o += 16 + ln
    print(f, len(d), ' '.join(out))
