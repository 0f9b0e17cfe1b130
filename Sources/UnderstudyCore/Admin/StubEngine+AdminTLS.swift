extension StubEngine {
    /// `GET /__admin/tls/ca.pem`: the CA certificate clients must trust to reach the HTTPS
    /// listener, as PEM; 404 when the daemon generated none.
    func certificateAuthority() -> HTTPResponse {
        guard let pem = configuration.certificateAuthorityPEM else {
            return AdminResponse.error(404, "no generated CA: start the daemon with --https (and without --tls-cert) to serve HTTPS with one")
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/x-pem-file"], body: Array(pem.utf8))
    }
}
