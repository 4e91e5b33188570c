"""The conformance suite: scenarios, the engine protocol, the runner, generated games and perft."""
