// The `understudy` command: parses arguments and calls UnderstudyCore and UnderstudyServer.
import UnderstudyCore
import UnderstudyRecording
import UnderstudyServer
import UnderstudyWireMock
import UnderstudyXML

// XML body matching for every command that compiles stubs (serve, check, convert-wiremock);
// libxml2 is opened only when a stub matches XML.
XMLSupport.install(LibXMLMatching())
// A stub's `compress: "br"` fails to load, with the reason, where brotli's library is missing.
CompressionLibraries.install()
// WireMock's mapping files for the loader (serve, check, convert-wiremock) and its admin API for
// the daemon; Core reads native stub files only unless it is installed.
WireMockSupport.install()
// Recording's admin routes (`recordings/*`, `requests.har`) and a session's `recording` option.
RecordingModule.install()
ServeFastPath.runOrParseAsUsual(CommandLine.arguments)
