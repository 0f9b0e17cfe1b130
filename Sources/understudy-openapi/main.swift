// `understudy-openapi`: the OpenAPI commands, apart from the daemon so that `understudy` links neither
// OpenAPIKit nor Yams. `understudy check --openapi`, `generate`, `openapi-validate` and `serve --openapi`
// run it from beside their own binary.
import ArgumentParser
import UnderstudyCore
import UnderstudyOpenAPI
import UnderstudyWireMock
import UnderstudyXML

// Built without the package's OpenAPI trait there is no OpenAPIKit or Yams to read a spec with.
guard OpenAPITrait.isEnabled else { OpenAPITool.exit(withError: ValidationError(OpenAPITrait.missing)) }

// `check --openapi` loads the stubs here, so XML matchers compile as they do in `understudy`.
XMLSupport.install(LibXMLMatching())
WireMockSupport.install()
OpenAPITool.main()
