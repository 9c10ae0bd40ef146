"""The rules of rules.md stated once, the scalar referee that plays a deal by them, and the
deal record."""
