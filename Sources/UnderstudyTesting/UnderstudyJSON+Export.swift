// Tests build stubs and read admin answers with the package's one JSON value type.
@_exported import UnderstudyJSON
