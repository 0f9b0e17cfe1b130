/// Dates written with a pattern of the letters Java's `SimpleDateFormat` and ICU share (what
/// WireMock's `now format='…'` takes), in UTC: `yyyy`/`yy` year, `MMMM`/`MMM`/`MM`/`M` month,
/// `dd`/`d` day, `EEEE`/`EEE` weekday, `HH`/`H` and `hh`/`h` hour, `mm`/`m` minute, `ss`/`s` second,
/// `SSS` milliseconds (`S` the count, padded), `a` AM/PM, `Z` (`+0000`), `X`/`XXX` (`Z`), `'quoted'` text (`''` is a quote);
/// anything else that is not a letter is copied.
extension TimeFormatting {
    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    private static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The letters a pattern may use.
    package static let patternLetters: Set<Character> = ["y", "M", "d", "E", "H", "h", "m", "s", "S", "a", "Z", "X"]

    /// The first letter of `pattern` that ``formatted(_:pattern:)`` does not know, if any.
    package static func unsupportedPatternLetter(_ pattern: String) -> Character? {
        var quoted = false
        for character in pattern {
            if character == "'" {
                quoted.toggle()
            } else if !quoted, character.isASCII, character.isLetter, !patternLetters.contains(character) {
                return character
            }
        }
        return nil
    }

    /// `secondsSince1970` written with `pattern` (see the type's summary), in UTC.
    package static func formatted(_ secondsSince1970: Double, pattern: String) -> String {
        let totalMilliseconds = Int64((secondsSince1970 * 1000).rounded(.down))
        let seconds = floorDivide(totalMilliseconds, 1000)
        let milliseconds = Int(totalMilliseconds - seconds * 1000)
        let parts = civil(seconds)
        let weekday = Int((floorDivide(seconds, 86_400) % 7 + 7 + 4) % 7)
        var out = ""
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            let letter = characters[index]
            if letter == "'" {
                // `''` is a quote; otherwise copy up to the closing quote.
                if index + 1 < characters.count, characters[index + 1] == "'" {
                    out.append("'")
                    index += 2
                    continue
                }
                // Inside quotes `''` is a quote too (`'it''s'` is `it's`), as in `SimpleDateFormat`.
                index += 1
                while index < characters.count {
                    if characters[index] == "'" {
                        guard index + 1 < characters.count, characters[index + 1] == "'" else { break }
                        index += 1
                    }
                    out.append(characters[index])
                    index += 1
                }
                index += 1
                continue
            }
            var count = 1
            while index + count < characters.count, characters[index + count] == letter { count += 1 }
            index += count
            guard letter.isASCII, letter.isLetter else {
                out += String(repeating: letter, count: count)
                continue
            }
            switch letter {
            case "y": out += count == 2 ? pad(parts.year % 100, 2) : pad(parts.year, max(count, 1))
            case "M":
                switch count {
                case 1, 2: out += pad(parts.month, count)
                case 3: out += months[parts.month - 1]
                default: out += monthNames[parts.month - 1]
                }
            case "d": out += pad(parts.day, count)
            case "E": out += count >= 4 ? weekdayNames[weekday] : weekdays[weekday]
            case "H": out += pad(parts.hour, count)
            case "h": out += pad(parts.hour % 12 == 0 ? 12 : parts.hour % 12, count)
            case "m": out += pad(parts.minute, count)
            case "s": out += pad(parts.second, count)
            // `SimpleDateFormat`'s `S` is the millisecond count, padded to the letters' width (`S` of
            // .937 is `937`, `SSSS` is `0937`), not a fraction of the second.
            case "S": out += pad(milliseconds, count)
            case "a": out += parts.hour < 12 ? "AM" : "PM"
            case "Z": out += "+0000"
            case "X": out += "Z"
            default: out += String(repeating: letter, count: count)
            }
        }
        return out
    }
}
