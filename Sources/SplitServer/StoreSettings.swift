import SplitSettings
import SplitStore

// The configuration's names for the store's options (SplitSettings does not link SQLite).
extension Durability {
    init(_ setting: DatabaseDurability) {
        switch setting {
        case .full: self = .full
        case .normal: self = .normal
        }
    }
}

extension IntegrityCheck {
    init(_ setting: DatabaseIntegrityCheck) {
        switch setting {
        case .none: self = .none
        case .quick: self = .quick
        case .full: self = .full
        }
    }
}
