import Foundation
import Quire
// Shared test helpers (TempDir, expectCode, the repository) for every file of this target.
@_exported import QuireTestSupport

/// The `quire` executable built beside the test bundle.
func quireBinary() throws -> URL { try builtQuireBinary() }

/// Runs `quire` with arguments and returns (exit status, stdout, stderr).
