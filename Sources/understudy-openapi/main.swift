// `understudy-openapi`: the OpenAPI commands, apart from the daemon so that `understudy` links neither
// OpenAPIKit nor Yams. `understudy check --openapi`, `generate`, `openapi-validate` and `serve --openapi`
// run it from beside their own binary.
OpenAPITool.main()
