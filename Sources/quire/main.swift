import Quire
print("quire \(QuireVersion.string)")
