/* The takes of the pile by a side that has not opened (the draw phase), counted without building them.
 *
 * Included by ``../_core.c`` after the draw phase's listing and ``openings.c``: it reads the take's facts
 * (``TakeFacts``, ``pile_gain``, ``take_pool_of``), the draw phase's questions and the openings' counting. The
 * reference (``legal._draw_phase``, ``_take_group_blocks``, ``_TakeShapes``, ``_take_family``) lists, after drawing,
 * the take of the top card alone and then every group of cards from hand that melds it (``movegen.take_groups``:
 * every pair, every larger group with a natural card), each taken alone where that is legal and, where only the
 * minimum or a card kept refuses it alone, with every choice of further melds from the rest of the hand (a shape
 * of each other rank at most), judged on the aggregate with the take's own cards counted in. Here a group counts by
 * its shape (its natural cards, by how many ways the hand picks them, and its wild cards by type), and its further
 * melds by ``openings.c``'s counting from a start state that holds the top card's meld, with the verdict of a take
 * (``take_judge``): pile.take told the further melds, each meld valid kept or going out, the turn ending legally,
 * and the initial meld's minimum with the take (the top card's points apart). */

/* One take group's counting: the openings' counting (first: its verdict casts back), what the take is judged with,
 * the group's pile.take counts (its cards, natural cards of the top card's rank, wild cards), the top card's points
 * and whether the top card is set aside from what the opening is made of (initial_meld.composition_from_hand). */
typedef struct {
    OpeningCount oc;
    const DrawQuestions *d;
    TakeFacts *t;
    int fields[3], top_points, from_hand;
} TakeCount;

static void state_table_clear(StateTable *t) {
    memset(t->used, 0, (size_t)t->capacity);
    t->size = 0;
}

/* Hook pile.take on the group with ``extra_melds`` further melds: 1, 0, or -1 with an exception. */
static int take_fields_allow(TakeCount *tc, int extra_melds) {
    int32_t *a = tc->t->take.arguments;
    a[TAKE_CARDS] = tc->fields[0], a[TAKE_NATURALS] = tc->fields[1], a[TAKE_WILDS] = tc->fields[2];
    a[TAKE_EXTRA_MELDS] = extra_melds, a[TAKE_EXTRA_OF_TOP_RANK] = a[TAKE_EXTRA_REPEATED_RANKS] = 0;
    return answer_is_none(tc->d->memo[DRAW_TAKE], &tc->t->take);
}

/* The initial-meld hooks on a take finished as ``state`` (``checks.initial_meld_refusal``, taking the pile): its
 * cards' points, the top card's apart, the canastas it makes ``made``; 1, 0, or -1 with an exception. */
static int take_meets_minimum(TakeCount *tc, const int32_t *state, const int made[4]) {
    const OpeningQuestions *q = tc->oc.q;
    long count = initial_count(q, state_points(&tc->oc, state), tc->top_points, made);
    if (count == -1 && PyErr_Occurred()) return -1;
    int composition = state[OS_COMPOSITION];
    KeyValues v = {.arguments = {(int32_t)count, tc->oc.minimum, 0, 0, 1, composition & 1, composition >> 1 & 1,
                                 composition >> 2 & 1, made[0], made[1], made[2]}};
    PyObject *answer = ask_built(q->valid, &v);
    return answer == NULL ? -1 : answer == Py_None;
}

/* The canastas of the side after a take finished as ``state``, by kind, into ``after``; those it makes into
 * ``made``. */
static void take_kinds(const OpeningCount *oc, const int32_t *state, int made[4], int after[4]) {
    made[0] = state[OS_KIND0], made[1] = state[OS_KIND1], made[2] = state[OS_KIND2], made[3] = 0;
    for (int k = 0; k < 4; k++) after[k] = oc->side_kinds[k] + made[k];
}

/* The verdict on a take with further melds finished as ``state`` (``legal._take_family``'s ``verdict``): pile.take
 * told their number, every meld valid kept or going out, the turn ending legally, the minimum. 1, 0, or -1. */
static int take_judge(OpeningCount *oc, const int32_t *state) {
    TakeCount *tc = (TakeCount *)oc;
    int made[4], after[4];
    take_kinds(oc, state, made, after);
    int fine = take_fields_allow(tc, state[OS_GROUPS]);
    if (fine <= 0) return fine;
    RankShape whole = {.staying = state[OS_STAYING], .leaving = state[OS_LEAVING]};
    fine = single_meld_fine(&oc->ending, &whole, oc->hand_size - state[OS_USED], after);
    return fine <= 0 ? fine : take_meets_minimum(tc, state, made);
}

/* The take with the group alone (``legal._take_verdict``, from the start state ``start``): whether it is legal,
 * and whether further melds may make it so (it fails only on the minimum or on the card kept: ``EXTRAS_MAY_LIFT``),
 * in the order ``checks.plan_melding`` asks (the kind, pile.take, the meld valid, the minimum, the ending). 0, or -1
 * with an exception. */
static int group_verdict(const Position *self, TakeCount *tc, const int32_t *start, int *alone, int *may_help) {
    OpeningCount *oc = &tc->oc;
    *alone = *may_help = 0;
    int fine = draw_kind_allowed(self, tc->d, tc->d->kind_take);
    if (fine > 0) fine = take_fields_allow(tc, 0);
    if (fine <= 0) return fine;
    int made[4], after[4], hand_after = oc->hand_size;
    take_kinds(oc, start, made, after);
    int going_out = hand_after == 0;
    if (hand_after == 1) going_out = oc->ending.pass_refused ? 1 : may_go_out_with(&oc->ending, after);
    if (going_out < 0) return -1;
    if (!(going_out ? start[OS_LEAVING] : start[OS_STAYING])) return 0;
    int minimum = take_meets_minimum(tc, start, made), may = minimum < 0 ? -1 : may_go_out_with(&oc->ending, after);
    if (may < 0) return -1;
    int out_refused = hand_after == 0 && !may, ending = out_refused ? 0 : ending_fine(&oc->ending, hand_after, after);
    if (ending < 0) return -1;
    *alone = minimum && ending;
    *may_help = !minimum || !out_refused;
    return 0;
}

/* Where a group's further melds start (``legal._take_start``): the top card's meld laid with the group's ``n``
 * natural cards, ``twos`` other wild cards and ``jokers`` (its validity and canasta), the group's ``points``, and
 * what the top card's meld adds to the opening's composition. -1 with an exception. */
static int take_start(const Position *self, TakeCount *tc, const ShapeQuestion *q, int n, int twos, int jokers,
                      int points, int32_t start[OS_FIELDS]) {
    const TakeFacts *t = tc->t;
    int top_naturals = n + !self->facts.is_wild[t->top];
    KeyValues values;
    const NativeMeld *before;
    RankShape top;
    shape_values_start(self, t->seat, t->top_rank, 1, q, &values, &before);
    if (shape_judged(self, q, &values, before, top_naturals, twos, jokers, &top) < 0) return -1;
    memset(start, 0, sizeof(int32_t) * OS_FIELDS);
    start[OS_POINTS] = points;
    if (top.new_kind >= 0 && top.new_kind < 3) start[OS_KIND0 + top.new_kind] = 1;
    start[OS_STAYING] = top.staying, start[OS_LEAVING] = top.leaving;
    if (tc->oc.q->reads_composition)
        start[OS_COMPOSITION] = opening_composition_of(t->top_rank, tc->from_hand ? n : top_naturals, twos + jokers);
    return 0;
}

/* The actions of one take group's shape (``legal._TakeShapes.weight``): the take alone where legal, and its further
 * melds where they may help; -1 with an exception. ``picked``: the group's wild cards by type, ``wild_types`` of
 * them (``types``), as the rest of the hand's pool of wild cards is left from them. */
static long long group_actions(const Position *self, TakeCount *tc, const ShapeQuestion *q, int n,
                               const int *wild_types, const int *picked, int types) {
    const CardFacts *f = &self->facts;
    OpeningCount *oc = &tc->oc;
    int twos = 0, jokers = 0, points = n * f->melded_value[tc->t->top_rank * 4];
    for (int i = 0; i < types; i++) {
        points += picked[i] * f->melded_value[wild_types[i]];
        if (wild_types[i] == JOKER) jokers += picked[i];
        else twos += picked[i];
    }
    tc->fields[0] = n + twos + jokers, tc->fields[1] = n, tc->fields[2] = twos + jokers;
    oc->hand_size = tc->t->held + tc->t->gained - tc->fields[0];
    int32_t start[OS_FIELDS];
    int alone, may_help;
    if (take_start(self, tc, q, n, twos, jokers, points, start) < 0 ||
        group_verdict(self, tc, start, &alone, &may_help) < 0)
        return -1;
    if (!may_help) return alone;
    const uint8_t *hand = self->state.hands[tc->t->seat];
    oc->two_types = oc->twos_total = 0;
    for (int i = 0; i < types; i++)
        if (wild_types[i] != JOKER) {
            oc->twos_pool[oc->two_types++] = hand[wild_types[i]] - picked[i];
            oc->twos_total += hand[wild_types[i]] - picked[i];
        }
    oc->jokers = hand[JOKER] - jokers;
    state_table_clear(&oc->below), state_table_clear(&oc->verdicts), state_table_clear(&oc->twos_ways);
    long long extras = openings_below(oc, start);
    return extras < 0 ? -1 : alone + extras;
}

/* Add ``count`` times ``weight`` to ``*total``; -1 with an exception on an overflow. */
static int add_weighted(long long *total, long long count, long long weight) {
    long long product;
    if (__builtin_mul_overflow(count, weight, &product) || __builtin_add_overflow(*total, product, total)) {
        PyErr_SetString(PyExc_OverflowError, "native core: more takes than a 64-bit count holds");
        return -1;
    }
    return 0;
}

/* The actions of every take group (``movegen.take_groups`` before an opening: every pair, every larger group with a
 * natural card), by shape: each choice of the pool's wild cards by type, with each number of its natural cards
 * (picked ``natural_ways`` ways). -1 with an exception. */
static int groups_count(const Position *self, TakeCount *tc, const ShapeQuestion *q, long long *total) {
    const CardFacts *f = &self->facts;
    const uint8_t *hand = self->state.hands[tc->t->seat];
    int pool[CARD_TYPES], types = take_pool_of(self, tc->t, pool), naturals[4], natural_types = 0, available = 0;
    int wild_types[CARD_TYPES], wilds = 0, picked[CARD_TYPES] = {0};
    for (int i = 0; i < types; i++) {
        if (f->is_wild[pool[i]]) wild_types[wilds++] = pool[i];
        else naturals[natural_types++] = hand[pool[i]], available += hand[pool[i]];
    }
    long long natural_ways[MAX_CARDS + 1];
    choice_counts(naturals, natural_types, available, natural_ways);
    for (;;) {
        int chosen = 0;
        for (int i = 0; i < wilds; i++) chosen += picked[i];
        for (int n = 0; n <= available; n++) {
            int size = n + chosen;
            if (size < 2 || (size > 2 && n == 0)) continue;
            long long actions = group_actions(self, tc, q, n, wild_types, picked, wilds);
            if (actions < 0 || add_weighted(total, actions, natural_ways[n]) < 0) return -1;
        }
        int i = 0; /* the next choice of wild cards, as an odometer over their types */
        while (i < wilds && picked[i] == hand[wild_types[i]]) picked[i++] = 0;
        if (i == wilds) return 0;
        picked[i]++;
    }
}

/* ``take_count(context, questions, minimum, composition_from_hand)``: how many actions the seat to act (in the
 * draw phase, its side not opened, the pile not empty) may make, as the reference's listing counts them: drawing,
 * the take of the top card alone, and every take group alone or with further melds. ``context``: the draw phase's
 * (``listing.NativeDrawListing``); ``questions`` and ``minimum`` as ``opening_count`` takes them;
 * ``composition_from_hand``: hook initial_meld.composition_from_hand (the top card set aside from what the opening
 * is made of). */
static PyObject *Position_take_count(Position *self, PyObject *args) {
    PyObject *context, *questions;
    int minimum, from_hand;
    OpeningQuestions q;
    if (!PyArg_ParseTuple(args, "OO!ip", &context, &PyTuple_Type, &questions, &minimum, &from_hand) ||
        read_opening_questions(questions, &q) < 0)
        return NULL;
    const ListingContext *c = context_with(context, 0, 1);
    if (c == NULL) return NULL;
    const State *s = &self->state;
    int seat = s->to_act;
    if (s->team_opened[s->side_of[seat]] || s->pile_len == 0 || s->turn.phase != PHASE_DRAW)
        return PyErr_Format(PyExc_ValueError,
                            "native core: take_count asks of the draw phase of a side not opened, its pile not empty");
    Ending e = c->ending;
    e.permission_code = c->draw.out_permission[s->turn.permission];
    e.discard_pending = !s->turn.last_card_bonus;
    table_values_of(self, seat, e.out_values.table);
    TakeFacts t;
    memset(&t, 0, sizeof(t));
    TakeCount tc = {.oc = {.q = &q, .ending = e, .minimum = minimum, .judge = take_judge}, .d = &c->draw, .t = &t,
                    .from_hand = from_hand};
    long long total = 0;
    int alone = 0, may_help, failed = take_facts_of(self, &c->draw, &c->shapes, &tc.oc.ending, &t) < 0 ||
                                  (t.gained = pile_gain(self, &c->draw, &t)) < 0;
    if (!failed) {
        tc.top_points = self->facts.melded_value[t.top];
        memcpy(tc.oc.side_kinds, t.kinds, sizeof(t.kinds));
        int32_t start[OS_FIELDS];
        tc.oc.hand_size = t.held + t.gained;
        failed = take_start(self, &tc, &c->shapes, 0, 0, 0, 0, start) < 0 ||
                 group_verdict(self, &tc, start, &alone, &may_help) < 0; /* the top card alone: no further melds */
    }
    int may_draw = failed ? -1 : draw_allowed(self, &c->draw, &t, alone);
    failed = may_draw < 0 || opening_wilds(self, seat, &tc.oc) < 0 || state_table_alloc(&tc.oc.below, 256) < 0 ||
             state_table_alloc(&tc.oc.verdicts, 64) < 0 || state_table_alloc(&tc.oc.twos_ways, 16) < 0 ||
             opening_options(self, seat, &c->shapes, q.reads_composition, t.top_rank, 0, &tc.oc) < 0 ||
             groups_count(self, &tc, &c->shapes, &total) < 0;
    opening_count_free(&tc.oc);
    return failed ? NULL : PyLong_FromLongLong(total + may_draw + alone);
}
