//! Daldøs exact dice odds and the expectiminimax engine.
