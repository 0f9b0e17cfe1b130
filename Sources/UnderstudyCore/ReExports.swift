// The engine's public API speaks in JSON values and compiled regexes (``ValueMatcher/matches(_:)``),
// so its users see both modules through this one.
@_exported import UnderstudyJSON
@_exported import UnderstudyRegex
