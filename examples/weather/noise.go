package weather

// The generator's randomness is a hash of what the value depends on, so the
// weather is a pure function of the city and the time: FNV-1a over the
// city's slug, the local day number, the local hour and a channel naming
// the quantity, then the SplitMix64 finalizer so that neighbouring inputs
// give unrelated outputs.

// channel names the quantity a random number is for, so that quantities of
// the same hour are independent.
type channel byte

const (
	chTemp channel = iota + 1
	chRange
	chPrecip
	chCloud
	chHumidity
	chWind
	chWindDir
)

// wholeDay is the hour used for values that hold for a whole day.
const wholeDay = 24

const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// hash returns 64 well-mixed bits for a city, local day number, local hour
// (or [wholeDay]) and channel. It does not allocate.
func hash(slug string, day int64, hour int, ch channel) uint64 {
	h := uint64(fnvOffset64)
	for i := 0; i < len(slug); i++ {
		h = (h ^ uint64(slug[i])) * fnvPrime64
	}
	for i := range 8 {
		h = (h ^ uint64(byte(day>>(8*i)))) * fnvPrime64
	}
	h = (h ^ uint64(byte(hour))) * fnvPrime64
	h = (h ^ uint64(ch)) * fnvPrime64
	// SplitMix64 finalizer.
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// uniform returns a number in [0, 1) for the inputs of [hash].
func uniform(slug string, day int64, hour int, ch channel) float64 {
	return float64(hash(slug, day, hour, ch)>>11) / (1 << 53)
}

// normal returns an approximately standard normal number, in [-3, 3], for
// the inputs of [hash]: the scaled sum of three uniform numbers taken from
// different bits of one hash.
func normal(slug string, day int64, hour int, ch channel) float64 {
	const bits, mask = 21, 1<<21 - 1
	h := hash(slug, day, hour, ch)
	sum := float64(h&mask) + float64(h>>bits&mask) + float64(h>>(2*bits)&mask)
	// Each uniform part has variance 1/12; three have 1/4, so doubling the
	// centred sum gives variance 1.
	return 2 * (sum/(1<<bits) - 1.5)
}
