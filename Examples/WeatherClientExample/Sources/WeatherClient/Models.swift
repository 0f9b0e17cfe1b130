/// A city's forecast.
public struct Forecast: Codable, Sendable, Equatable {
    public var city: String
    public var tempC: Double
    public init(city: String, tempC: Double) {
        self.city = city
        self.tempC = tempC
    }
}

/// A measurement a station reports.
public struct Observation: Codable, Sendable, Equatable {
    public var station: String
    public var tempC: Double
    public init(station: String, tempC: Double) {
        self.station = station
        self.tempC = tempC
    }
}

/// A weather station.
public struct Station: Codable, Sendable, Equatable {
    public var id: String
}

/// Why a call failed.
public enum WeatherError: Error {
    case timedOut
    case transport(any Error)
    case unauthorized
    case unavailable(status: Int)
    case status(Int)
}
