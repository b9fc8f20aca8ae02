"""The coordinator: builds every entity of the sample in memory, in one fixed order of random draws.

Each step lives in the module named after what it makes; the order of the calls below is part of
the output (every step draws from the same ``random.Random``), so reordering them changes the data.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import date

from . import scenarios
from .caducidades import clear_impediments, make_caducidades, number_caducidades
from .carriers import make_carriers
from .fares import fare_history, make_fares
from .helpers import ActNumbers
from .lines import assign_prefixes, make_lines
from .outorgas import adjust_extinctions, make_outorgas, number_outorgas
from .promotions import PromotionDrawer


class World:
    """Carriers, lines, outorgas, caducidades, fares and promotions of one package.

    Infraction notices are not kept: :func:`.infractions.rows_infracoes` streams them, drawing from
    :attr:`rng` as they are written.
    """

    def __init__(self, rng: random.Random, counts: Mapping[str, int], as_of: date):
        self.rng = rng
        self.as_of = as_of
        self.carriers = make_carriers(rng, counts["transportadoras"])
        # The scripted lines come first: fares are laid out in this order.
        self.scenario = scenarios.scripted_lines(rng)
        random_lines = make_lines(rng, counts["linhas"] - len(self.scenario))
        self.lines = [*self.scenario.values(), *random_lines]

        self.outorgas = make_outorgas(rng, random_lines, self.carriers, counts["outorgas"],
                                      scenarios.PLANTED_OUTORGAS, as_of)
        adjust_extinctions(rng, self.outorgas, counts["caducidades"] - 1, as_of)  # plus the planted one
        self.roles = scenarios.pick_carriers(rng, self.outorgas, self.carriers)
        self.outorgas += scenarios.plant_outorgas(self.roles, self.scenario)
        self.caducidades = make_caducidades(rng, self.outorgas, scenarios.FIRST_NOTICE_TO_A)
        clear_impediments(rng, self.outorgas, self.caducidades, self.carriers, scenarios.scripted_starts(self.roles))

        assign_prefixes(rng, self.lines)
        acts = ActNumbers(rng)
        self.outorgas = number_outorgas(self.outorgas, acts)
        number_caducidades(rng, self.caducidades, acts)

        self.keys = make_fares(rng, self.lines, self.outorgas, counts["tarifas"])
        self.fares = fare_history(self.keys)

        drawer = PromotionDrawer(rng, self.outorgas, self.keys, self.fares, as_of)
        planted = scenarios.planted_promotions(drawer, self.roles, self.scenario, self.outorgas)
        self.promotions = [drawer.draw() for _ in range(counts["tarifas_promocionais"] - len(planted))] + planted

