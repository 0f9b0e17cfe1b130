// The one JSON value type of the package lives in UnderstudyJSON (shared with UnderstudyTesting,
// which must not depend on the engine); the engine's users keep seeing it through this module.
@_exported import UnderstudyJSON
