/// Parses the three HTTP-date forms recipients must accept (RFC 9110 §5.6.7): IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`).
///
/// Parsed by hand rather than with `DateFormatter` so the result never depends on the process
/// locale or time zone, and so near-misses (`32 Nov`, `25:00:00`) are refused instead of rolled over.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let shortDays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The instant `text` names, or `nil` when it is not an HTTP-date.
    /// - Parameters:
    ///   - text: an IMF-fixdate, RFC 850 date or asctime date, as a header carries it.
    ///   - now: resolves RFC 850's two-digit years: a year more than 50 years ahead of
    ///     `now` is taken to be in the previous century (RFC 9110 §5.6.7).
    public static func parse(_ text: String, now: Date = Date()) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0).lowercased() }
        guard let first = tokens.first else { return nil }
        if first.hasSuffix(",") {
            let weekday = String(first.dropLast())
            if tokens.count == 6, shortDays.contains(weekday) {
                return imfFixdate(Array(tokens.dropFirst()))
            }
            if tokens.count == 4, longDays.contains(weekday) {
                return rfc850(Array(tokens.dropFirst()), now: now)
            }
            return nil
        }
        guard tokens.count == 5, shortDays.contains(first) else { return nil }
        return asctime(Array(tokens.dropFirst()))
    }

    /// `06 nov 1994 08:49:37 gmt`
    private static func imfFixdate(_ t: [String]) -> Date? {
        guard t[4] == "gmt", t[0].count == 2, t[2].count == 4,
            let day = Int(t[0]), let month = month(t[1]), let year = Int(t[2])
        else { return nil }
        return date(year: year, month: month, day: day, time: t[3])
    }

    /// `06-nov-94 08:49:37 gmt`
    private static func rfc850(_ t: [String], now: Date) -> Date? {
        let parts = t[0].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard t[2] == "gmt", parts.count == 3, parts[0].count == 2, parts[2].count == 2,
            let day = Int(parts[0]), let month = month(parts[1]), let yy = Int(parts[2])
        else { return nil }
        let currentYear = civil(fromDays: Int((now.timeIntervalSince1970 / 86_400).rounded(.down))).year
        var year = (currentYear / 100) * 100 + yy
        if year > currentYear + 50 { year -= 100 }
        return date(year: year, month: month, day: day, time: t[1])
    }

    /// `nov 6 08:49:37 1994` (the day is space-padded, which the tokenizer already absorbed)
    private static func asctime(_ t: [String]) -> Date? {
        guard (1...2).contains(t[1].count), t[3].count == 4,
            let month = month(t[0]), let day = Int(t[1]), let year = Int(t[3])
        else { return nil }
        return date(year: year, month: month, day: day, time: t[2])
    }

    private static func month(_ name: String) -> Int? {
        months.firstIndex(of: name).map { $0 + 1 }
    }

    private static func date(year: Int, month: Int, day: Int, time: String) -> Date? {
        let hms = time.split(separator: ":", omittingEmptySubsequences: false)
        guard hms.count == 3, hms.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let h = Int(hms[0]), let m = Int(hms[1]), let s = Int(hms[2]),
            (0...23).contains(h), (0...59).contains(m), (0...60).contains(s),
            (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + h * 3_600 + m * 60 + min(s, 59)))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days: exact proleptic Gregorian arithmetic.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
