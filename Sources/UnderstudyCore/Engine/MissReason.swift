/// One reason a stub missed a request, as the unmatched response explains it
/// ("path /postz ≠ /posts"). How close the miss is comes from
/// ``RequestPattern/distance(from:base:budget:name:)``, not from the reasons.
struct MissReason {
    var text: String
}
