# Sourced by the scripts in scripts/: installs what a fresh Debian machine with Swift lacks.
# Only C libraries' headers are needed (libevent's, OpenSSL's, nghttp2's for HTTP/2, libcurl's for
# proxying stubs, which the daemon opens at run time, zlib's for `compress`, and mimalloc, which the daemon links on Linux
# as its allocator), and libxml2's and brotli's runtime libraries (no headers), which the daemon opens
# when a stub matches XML or compresses with `br`; everything else comes from Swift's toolchain.
ensure_libevent() {
    if pkg-config --exists libevent libevent_openssl openssl libnghttp2 libcurl zlib 2>/dev/null && [ -f /usr/include/event2/http.h ] \
        && [ -f /usr/include/openssl/ssl.h ] && [ -f /usr/include/mimalloc.h ] && [ -f /usr/include/nghttp2/nghttp2.h ] \
        && [ -n "$(ls /usr/lib/*/libxml2.so.2 /usr/lib/libxml2.so.2 2>/dev/null)" ] \
        && [ -n "$(ls /usr/lib/*/libbrotlienc.so.1 /usr/lib/libbrotlienc.so.1 2>/dev/null)" ]; then
        return 0
    fi
    echo "understudy: installing libevent-dev, libssl-dev, libnghttp2-dev, libcurl4-openssl-dev, libmimalloc-dev, zlib1g-dev, libxml2 and libbrotli1 (needed to build and run the daemon)" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "understudy: a C library is missing and this user cannot install it; run: apt-get install -y libevent-dev libssl-dev libnghttp2-dev libcurl4-openssl-dev libmimalloc-dev zlib1g-dev libxml2 libbrotli1" >&2; return 1; }
        sudo="sudo"
    fi
    $sudo apt-get update -qq >&2 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libevent-dev libssl-dev libnghttp2-dev libcurl4-openssl-dev libmimalloc-dev zlib1g-dev libxml2 libbrotli1 pkg-config >&2
}

# SwiftPM passes a package's enabled traits to the compiler as -D flags in the order of a Swift Set,
# which is random per process unless hashing is deterministic: with two traits on (every build here
# has --enable-all-traits) half of all `swift build` runs would see "new" flags and recompile every
# module of the package (measured: .build, then an example in it, then .build again, each recompiled
# UnderstudyJSON, UnderstudyTesting, RESTNetworking and more). With this, the order is the same in
# every run. Sourced by the scripts that build; scripts/lib/understudy_daemon.py sets it too.
export SWIFT_DETERMINISTIC_HASHING=1

# Installs a Debian package if the command it provides is missing.
ensure_command() {
    local command_name=$1 package=$2
    command -v "$command_name" >/dev/null 2>&1 && return 0
    echo "understudy: installing $package (for $command_name)" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq >&2 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package" >&2
}

# Installs a PyPI module for python3 if it cannot be imported (pip from Debian's python3-pip when
# missing; --break-system-packages only where the interpreter is Debian's externally managed one).
ensure_python_module() {
    local module=$1 package=${2:-$1}
    python3 -c "import $module" >/dev/null 2>&1 && return 0
    echo "understudy: installing $package from PyPI (for the black-box tests)" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        $sudo apt-get update -qq >&2 || true
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-pip >&2
    fi
    python3 -m pip install --quiet "$package" >&2 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages "$package" >&2
}

# Java and the PyPI `wiremock` package (which bundles the WireMock 2.35 standalone jar), for the
# WireMock differential suite and SDK test in Tests/BlackBox.
ensure_wiremock() {
    ensure_command java default-jre-headless
    ensure_python_module wiremock 'wiremock==2.7.0'
}

# The HTTP/2 clients of the black-box tests and the benchmark: nghttp and h2load (Debian
# nghttp2-client), and the PyPI `h2` package the fault tests drive over a socket.
ensure_http2_clients() {
    ensure_command nghttp nghttp2-client
    ensure_command h2load nghttp2-client
    ensure_python_module h2 'h2==4.4.1'
}

# The providers' own webhook verification libraries (Tests/BlackBox/test_webhooks.py checks each
# signed delivery with them): Stripe's `stripe.Webhook.construct_event` and Standard Webhooks'.
ensure_webhook_verifiers() {
    ensure_python_module stripe 'stripe==16.1.0'
    ensure_python_module standardwebhooks 'standardwebhooks==1.3.0'
}
