// The `understudy` command: parses arguments and calls UnderstudyCore and UnderstudyServer.
import UnderstudyCore
import UnderstudyXML

// XML body matching for every command that compiles stubs (serve, check, convert-wiremock);
// libxml2 is opened only when a stub matches XML.
XMLSupport.install(LibXMLMatching())
Understudy.main()
