// The compiled stub model speaks in JSON values (`requestJSON`, `BodyMatcher.json`), compiled
// regexes (``ValueMatcher/matches(_:)``), header fields (UnderstudyHTTP) and compiled response
// templates (``StubResponse/template``, UnderstudyTemplates), so its users see those modules through
// this one. These re-exports are edges of the layer table: ARCHITECTURE.md lists them under
// "Re-exports" and scripts/check-layers holds every importer of UnderstudyStubs to them.
@_exported import UnderstudyHTTP
@_exported import UnderstudyJSON
@_exported import UnderstudyRegex
@_exported import UnderstudyTemplates
