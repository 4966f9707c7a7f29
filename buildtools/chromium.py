"""Debian's Chromium as the browser tests and the benchmarks start it (facts verified in
../shared/RUNTIME.md): headless through Playwright's ``executable_path``, nothing of its own
reaching out, names resolving only to loopback and mDNS, and WebRTC allowed between pages
on loopback (the shared-table tests and benchmarks need it; the others do not notice)."""

EXECUTABLE = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE *.local",
    "--allow-loopback-in-peer-connection",
]
