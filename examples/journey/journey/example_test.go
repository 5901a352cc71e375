package journey_test

import (
	"errors"
	"fmt"

	"github.com/contentneg/contentneg/examples/journey/journey"
)

func ExamplePlanner_Find() {
	p, err := journey.NewPlanner()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := p.Find(journey.FindInput{
		From:      "Interlaken Ost",
		To:        "Zurich", // an alias of Zürich HB
		Departure: "2026-11-20T08:00:00+01:00",
		Limit:     2,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range res.Connections {
		fmt.Printf("%s-%s %s, %d change(s)\n", c.Departure[11:16], c.Arrival[11:16], c.Duration, c.Changes)
		for _, l := range c.Legs {
			fmt.Printf("  %-11s %s %s (pl. %s) - %s %s (pl. %s)\n", l.Train,
				l.Departure[11:16], l.From, l.DeparturePlatform, l.Arrival[11:16], l.To, l.ArrivalPlatform)
		}
	}
	// Output:
	// 08:04-09:58 PT1H54M, 1 change(s)
	//   IC 61 1207  08:04 Interlaken Ost (pl. 2) - 08:53 Bern (pl. 10)
	//   IC 1 710    09:02 Bern (pl. 7) - 09:58 Zürich HB (pl. 33)
	// 09:04-10:58 PT1H54M, 1 change(s)
	//   IC 61 1209  09:04 Interlaken Ost (pl. 2) - 09:53 Bern (pl. 10)
	//   IC 1 714    10:02 Bern (pl. 7) - 10:58 Zürich HB (pl. 33)
}

func ExamplePlanner_Station() {
	p, err := journey.NewPlanner()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := p.Station("lucerne")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.ID, s.Lines)

	_, err = p.Station("Lausane")
	var unknown *journey.UnknownStationError
	if errors.As(err, &unknown) {
		fmt.Println(unknown.Suggestions[0])
	}
	fmt.Println(err)
	// Output:
	// Luzern luzern [IC 21 IR 15 IR 70]
	// Lausanne
	// name: unknown station "Lausane"; did you mean "Lausanne", "Lugano" or "Basel SBB"?
}
