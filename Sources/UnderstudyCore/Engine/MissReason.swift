/// One reason a stub missed a request. `score` ranks near misses (lower is closer): each failed
/// condition costs 100, a wrong path more the further it is from the stub's path.
struct MissReason {
    var score: Int
    var text: String
}
