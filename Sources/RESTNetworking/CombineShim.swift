// The only place RESTNetworking chooses between Apple's Combine and OpenCombine. The imports are
// re-exported so every file of the module (and its clients) sees one set of names — `Publisher`,
// `AnyPublisher`, `Deferred` — whichever platform it is built on.
#if canImport(Combine)
@_exported import Combine
#else
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
#endif
