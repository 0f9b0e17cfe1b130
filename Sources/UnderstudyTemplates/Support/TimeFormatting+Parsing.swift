extension TimeFormatting {
    /// Milliseconds since 1970 for a UTC timestamp as the journal writes it
    /// (`2026-11-22T02:14:38.123Z`; fraction optional, any number of digits); nil otherwise.
    package static func parseISO8601Milliseconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58, bytes[16] == 58,
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == 46 {
            index += 1
            var scale = 0.1
            while index < bytes.count, bytes[index] >= 48 && bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        guard index == bytes.count - 1, bytes[index] == 90 else { return nil }
        // Howard Hinnant's `days_from_civil`, the inverse of `civil` above.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second)
        return (seconds + fraction) * 1000
    }
}

extension TimeFormatting {
    /// Seconds in an ISO-8601 duration of days, hours, minutes and seconds (`PT30S`, `PT1H30M`,
    /// `P1DT12H`, `PT0.5S`, `P2W`); nil for anything else (years and months have no fixed length).
    package static func parseISO8601Duration(_ text: String) -> Double? {
        var rest = Substring(text.uppercased())
        guard rest.hasPrefix("P"), rest.count > 1 else { return nil }
        rest = rest.dropFirst()
        var seconds = 0.0
        var inTime = false
        var number = ""
        var sawUnit = false
        var lastUnitRank = -1
        for character in rest {
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if character.isNumber || character == "." || character == "," {
                number.append(character == "," ? "." : character)
                continue
            }
            // Units in their order (W, D, then after T: H, M, S), each at most once.
            let units: [Character: (rank: Int, seconds: Double)] =
                inTime
                ? ["H": (2, 3600), "M": (3, 60), "S": (4, 1)]
                : ["W": (0, 604_800), "D": (1, 86_400)]
            guard let unit = units[character], let value = Double(number), value >= 0, unit.rank > lastUnitRank else {
                return nil
            }
            seconds += value * unit.seconds
            lastUnitRank = unit.rank
            number = ""
            sawUnit = true
        }
        guard sawUnit, number.isEmpty, !(inTime && lastUnitRank < 2) else { return nil }
        return seconds
    }
}
