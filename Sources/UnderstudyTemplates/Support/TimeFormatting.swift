/// Hand-written timestamp formats. `DateFormatter` is slow and not something to create per
/// request; these are a few integer divisions.
package enum TimeFormatting {
    /// `2026-11-22T02:14:38.123Z` for seconds since 1970 (milliseconds truncated, UTC).
    package static func iso8601Milliseconds(_ secondsSince1970: Double) -> String {
        let totalMilliseconds = Int64((secondsSince1970 * 1000).rounded(.down))
        let seconds = floorDivide(totalMilliseconds, 1000)
        let milliseconds = Int(totalMilliseconds - seconds * 1000)
        let parts = civil(seconds)
        var text = ""
        text.reserveCapacity(24)
        text += pad(parts.year, 4)
        text += "-"
        text += pad(parts.month, 2)
        text += "-"
        text += pad(parts.day, 2)
        text += "T"
        text += pad(parts.hour, 2)
        text += ":"
        text += pad(parts.minute, 2)
        text += ":"
        text += pad(parts.second, 2)
        text += "."
        text += pad(milliseconds, 3)
        text += "Z"
        return text
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, for whole seconds.
    package static func imfFixdate(_ secondsSince1970: Int64) -> String {
        let parts = civil(secondsSince1970)
        let days = floorDivide(secondsSince1970, 86_400)
        // 1970-01-01 was a Thursday.
        let weekday = Int((days % 7 + 7 + 4) % 7)
        return "\(weekdays[weekday]), \(pad(parts.day, 2)) \(months[parts.month - 1]) \(pad(parts.year, 4)) "
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)) GMT"
    }

    /// Milliseconds with three decimals from nanoseconds: `12.345`.
    package static func milliseconds(fromNanoseconds nanoseconds: UInt64) -> String {
        let micro = nanoseconds / 1_000
        return "\(micro / 1_000).\(pad(Int(micro % 1_000), 3))"
    }

    /// Seconds with three decimals, rounded up to the millisecond: `0.237`.
    package static func fractionalSeconds(_ seconds: Double) -> String {
        let millis = max(0, Int((seconds * 1000 - 1e-6).rounded(.up)))
        return "\(millis / 1000).\(pad(millis % 1000, 3))"
    }

    package static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    package static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    package struct Civil {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    }

    /// Civil date from seconds since 1970 (Howard Hinnant's `civil_from_days`).
    package static func civil(_ seconds: Int64) -> Civil {
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return Civil(
            year: year, month: month, day: day, hour: secondOfDay / 3600,
            minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    /// `secondsSince1970` moved by whole calendar months in UTC, as `java.util.Calendar.add`
    /// moves a date (WireMock's `now offset='1 months'`): the day of the month is kept, or the
    /// month's last day when it has fewer (31 January plus a month is 28 or 29 February); the
    /// time of day is kept.
    package static func addingMonths(_ months: Int, to secondsSince1970: Double) -> Double {
        guard months != 0 else { return secondsSince1970 }
        let whole = Int64(secondsSince1970.rounded(.down))
        let fraction = secondsSince1970 - Double(whole)
        let date = civil(whole)
        let index = date.year * 12 + (date.month - 1) + months
        let year = Int(floorDivide(Int64(index), 12))
        let month = index - year * 12 + 1
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let day = min(date.day, lengths[month - 1])
        let days = daysFromCivil(year: year, month: month, day: day)
        let secondOfDay = Int64(date.hour * 3600 + date.minute * 60 + date.second)
        return Double(days * 86_400 + secondOfDay) + fraction
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil`).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    package static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
