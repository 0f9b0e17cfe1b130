// `understudy-openapi`: the OpenAPI commands, apart from the daemon so that `understudy` links neither
// OpenAPIKit nor Yams. `understudy check --openapi`, `generate`, `openapi-validate` and `serve --openapi`
// run it from beside their own binary.
import UnderstudyCore
import UnderstudyXML

// `check --openapi` loads the stubs here, so XML matchers compile as they do in `understudy`.
XMLSupport.install(LibXMLMatching())
OpenAPITool.main()
