/* The takes of the pile by a side that has not opened (the draw phase), counted and indexed without building them.
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
 * and the initial meld's minimum with the take (the top card's points apart). The counting is capped where that
 * verdict stops changing (``OpeningCaps``: the further melds where pile.take answers alike, the cards left where
 * go_out.keep_card does, the points where the initial meld's verdict does). What a group leaves of the hand's wild
 * cards is folded into the state (``pool_put``: the wild cards it and the further melds use counted in the state,
 * the rest of the twos by copies), so every shape whose pile.take answers alike shares one counting
 * (``TakeCounting``), each from its own start state, and groups that leave different wild cards meet in the states
 * where their further melds have used the same in all. A listing keeps every shape's counts and the countings'
 * tables (``KeptTakes``), so that an action asked for later descends them (``opening_descend``) asking no rule
 * question again; ``listing.NativeTakeGroups`` puts the shapes in ``take_groups`` order. */

/* One take group's counting: the openings' counting (first: its verdict casts back), what the take is judged with,
 * the group's pile.take counts (its cards, natural cards of the top card's rank, wild cards), the top card's points,
 * and whether the top card is set aside from what the opening is made of (initial_meld.composition_from_hand). */
typedef struct {
    OpeningCount oc;
    const DrawQuestions *d;
    TakeFacts *t;
    int fields[3], top_points, from_hand;
} TakeCount;

/* Hook pile.take on the group with ``extra_melds`` further melds: 1, 0, or -1 with an exception. */
static int take_fields_allow(TakeCount *tc, int extra_melds) {
    int32_t *a = tc->t->take.arguments;
    a[TAKE_CARDS] = tc->fields[0], a[TAKE_NATURALS] = tc->fields[1], a[TAKE_WILDS] = tc->fields[2];
    a[TAKE_EXTRA_MELDS] = extra_melds, a[TAKE_EXTRA_OF_TOP_RANK] = a[TAKE_EXTRA_REPEATED_RANKS] = 0;
    return answer_is_none(tc->d->memo[DRAW_TAKE], &tc->t->take);
}

/* The initial-meld hooks on a take (``checks.initial_meld_refusal``, taking the pile): its cards' ``points``, the
 * top card's apart, the canastas it makes ``made``, what its melds are made of; 1, 0, or -1 with an exception. */
static int take_minimum(TakeCount *tc, int points, const int made[4], int composition) {
    const OpeningQuestions *q = tc->oc.q;
    long count = initial_count(q, points, tc->top_points, made);
    if (count == -1 && PyErr_Occurred()) return -1;
    KeyValues v = {.arguments = {(int32_t)count, tc->oc.minimum, 0, 0, 1, composition & 1, composition >> 1 & 1,
                                 composition >> 2 & 1, made[0], made[1], made[2]}};
    PyObject *answer = ask_built(q->valid, &v);
    return answer == NULL ? -1 : answer == Py_None;
}

/* ``take_minimum`` on a take finished as ``state`` (its points capped where the counting is). */
static int take_meets_minimum(TakeCount *tc, const int32_t *state, const int made[4]) {
    return take_minimum(tc, state_points(&tc->oc, state), made, state[OS_COMPOSITION]);
}

/* ``take_minimum`` as the points cap asks it (``MinimumVerdict``): a take's verdict does not read the cards left. */
static int take_minimum_case(OpeningCount *oc, int points, const int made[4], int hand_after, int composition) {
    (void)hand_after;
    return take_minimum((TakeCount *)oc, points, made, composition);
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
    fine = single_meld_fine(&oc->ending, &whole, state_hand_after(oc, state), after);
    return fine <= 0 ? fine : take_meets_minimum(tc, state, made);
}

/* Where a group's further melds start (``legal._take_start``): the top card's meld laid with the group's ``n``
 * natural cards, ``twos`` other wild cards and ``jokers`` (its validity and canasta), the points of its natural
 * cards ``points`` (its wild cards counted in the state, as the further melds' are), and what the top card's meld
 * adds to the opening's composition. -1 with an exception. */
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
    start[OS_POINTS] = points, start[OS_TWOS] = twos, start[OS_JOKERS] = jokers;
    if (top.new_kind >= 0 && top.new_kind < 3) start[OS_KIND0 + top.new_kind] = 1;
    start[OS_STAYING] = top.staying, start[OS_LEAVING] = top.leaving;
    if (tc->oc.q->reads_composition)
        start[OS_COMPOSITION] = opening_composition_of(t->top_rank, tc->from_hand ? n : top_naturals, twos + jokers);
    return 0;
}

/* The take with the group alone (``legal._take_verdict``; the group's counts in ``tc->fields``, its natural cards
 * ``n``, other wild cards ``twos``, ``jokers`` and its natural cards' ``points``): whether it is legal, and whether
 * further melds may make it so (it fails only on the minimum or on the card kept: ``EXTRAS_MAY_LIFT``), in the order
 * ``checks.plan_melding`` asks (the kind, pile.take, the meld valid, the minimum, the ending); where they may, the
 * state they start from into ``start``. 0, or -1 with an exception. */
static int group_verdict(const Position *self, TakeCount *tc, const ShapeQuestion *q, const int group[4],
                         int32_t *start, int *alone, int *may_help) {
    OpeningCount *oc = &tc->oc;
    *alone = *may_help = 0;
    int fine = draw_kind_allowed(self, tc->d, tc->d->kind_take);
    if (fine > 0) fine = take_fields_allow(tc, 0);
    if (fine > 0) fine = take_start(self, tc, q, group[0], group[1], group[2], group[3], start) < 0 ? -1 : 1;
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

/* What a counting of further melds reads besides its state and the listing's (``TakeCounting``): pile.take's
 * answers on the group told each number of further melds, and the caps. The rest of the hand's wild cards and the
 * group's cards are in each shape's start state. */
typedef struct {
    int answers[MELD_RANKS + 1];
    OpeningCaps caps;
} CountingKey;

/* A counting of further melds that shapes alike in all it reads (``CountingKey``) share, each from its own start
 * state: the actions below a state and the verdicts are the same for every one of them, so a big hand's many
 * groups cost the states they reach together, not each its own. */
typedef struct {
    CountingKey key;
    StateTable below, verdicts;
} TakeCounting;

/* One shape of take group: its natural cards (``naturals``, picked ``groups`` ways), its wild cards by type (in the
 * order of ``KeptTakes.wild_types``), whether it is legal alone and may be helped by further melds, how many
 * further melds it has, their first state, and the counting it shares (1 + its place in ``KeptTakes.countings``;
 * 0: none). */
typedef struct {
    int naturals, alone, may_help, counting;
    uint8_t picked[CARD_TYPES];
    long long groups;
    Count extras;
    int32_t start[OS_FIELDS];
} TakeShape;

/* A listing's takes as counted (``take_listing``), kept for the actions asked of them later: the questions and
 * facts the counting read, the counting every shape starts from (``base``: the options of further melds, and the
 * caps of the cards left and of the points, found once for every shape), the pool's wild card types and how many
 * of each are held, its natural cards, every shape, whether the seat may draw and take the top card alone, the
 * total. */
typedef struct {
    OpeningQuestions q;
    TakeFacts t;
    TakeCount base;
    int wild_types[CARD_TYPES], wilds_held[CARD_TYPES], wilds, naturals, shape_count, may_draw, top_alone, has_options;
    TakeShape *shapes;
    TakeCounting *countings;
    int counting_count;
    PoolBranches branches;
    Count total;
} KeptTakes;

static void kept_takes_release(KeptTakes *kept) {
    for (int i = 0; i < kept->counting_count; i++) {
        TakeCounting *c = &kept->countings[i];
        state_table_free(&c->below), state_table_free(&c->verdicts);
    }
    PyMem_Free(kept->shapes), PyMem_Free(kept->countings);
    pool_branches_free(&kept->branches);
    opening_count_free(&kept->base.oc);
}

/* The counting of ``shape``'s further melds into ``tc``: the base counting (every wild card of the hand: those the
 * group uses are counted in its start state) with the group's pile.take counts, the cards it leaves in hand and the
 * shape's tables. Its jokers into ``*jokers``. */
static void shape_counting(KeptTakes *kept, const TakeShape *shape, TakeCount *tc, int *jokers) {
    *tc = kept->base;
    OpeningCount *oc = &tc->oc;
    int wilds = 0;
    *jokers = 0;
    for (int i = 0; i < kept->wilds; i++) {
        wilds += shape->picked[i];
        if (kept->wild_types[i] == JOKER) *jokers += shape->picked[i];
    }
    tc->fields[0] = shape->naturals + wilds, tc->fields[1] = shape->naturals, tc->fields[2] = wilds;
    oc->hand_size = kept->t.held + kept->t.gained - tc->fields[0];
    if (shape->counting == 0) return;
    const TakeCounting *c = &kept->countings[shape->counting - 1];
    oc->below = c->below, oc->verdicts = c->verdicts, oc->caps = c->key.caps;
}

/* The tables of ``tc``'s counting kept by the counting ``shape`` shares (a table grown moves). */
static void shape_keep_tables(KeptTakes *kept, const TakeShape *shape, const TakeCount *tc) {
    TakeCounting *c = &kept->countings[shape->counting - 1];
    c->below = tc->oc.below, c->verdicts = tc->oc.verdicts;
}

/* The reach of a take's points with further melds, over every shape (``PointsReach``): the further melds' (the
 * base counting holds every wild card of the hand) with the most the group's natural cards add, a canasta of each
 * kind the top card's meld may make, and what that meld may be made of; -1 where some points are negative. */
static int take_points_reach(const Position *self, const KeptTakes *kept, PointsReach *r) {
    const OpeningCount *oc = &kept->base.oc;
    int natural_points = self->facts.melded_value[kept->t.top_rank * 4];
    if (points_reach(oc, r) < 0 || natural_points < 0) return -1;
    r->highest += kept->naturals * natural_points;
    r->unit = gcd_of(r->unit, kept->naturals ? natural_points : 0);
    r->unit = r->unit > 0 ? r->unit : 1;
    for (int kind = 0; kind < 3; kind++) r->most[kind] += kind_read(oc, kind);
    if (oc->q->reads_composition) r->compositions |= kept->t.top_rank == MELD_RANKS - 2 ? 2 : 5;
    return 0;
}

/* The caps every shape's further melds share (``OpeningCaps``): the cards left, asked over the most the hand
 * holds after taking the pile, and the points, over the reach of every shape (``take_points_reach``); -1 with an
 * exception. */
static int base_caps(const Position *self, KeptTakes *kept) {
    OpeningCount *oc = &kept->base.oc;
    OpeningCaps *caps = &oc->caps;
    PointsReach r;
    if ((caps->left = left_cap(oc)) < -1) return -1;
    caps->points = take_points_reach(self, kept, &r) < 0 ? -1 : points_cap_of(oc, &r, take_minimum_case);
    return caps->points < -1 ? -1 : 0;
}

/* The base counting's options of further melds: every valid shape of every rank the hand could lay but the top
 * card's, in rank order, and the caps they share, found once a listing where a group may use them; -1 with an
 * exception. */
static int base_options(const Position *self, KeptTakes *kept, const ShapeQuestion *q) {
    if (kept->has_options) return 0;
    kept->has_options = 1;
    if (opening_options(self, kept->t.seat, q, kept->q.reads_composition, kept->t.top_rank, 0, &kept->base.oc) < 0)
        return -1;
    return base_caps(self, kept);
}

/* What the counting of ``tc``'s further melds reads (``CountingKey``) into ``key``: pile.take's answers and the
 * caps (the base's cards left and points, its own groups, and the cards of the hand after taking in no option
 * that no group uses: neither wild cards nor natural cards of the top card's rank, each group's left in hand being
 * in its start state; at most the cards-left cap: above it every state leaves as many, ``state_hand_after``); -1
 * with an exception. */
static int counting_key(TakeCount *tc, const KeptTakes *kept, CountingKey *key) {
    const OpeningCount *oc = &tc->oc, *base = &kept->base.oc;
    memset(key, 0, sizeof(*key));
    for (int groups = 0; groups <= oc->rank_count; groups++)
        if ((key->answers[groups] = take_fields_allow(tc, groups)) < 0) return -1;
    int cap = constant_from(key->answers, oc->rank_count + 1);
    key->caps = (OpeningCaps){.on = 1, .groups = cap > 1 ? cap : 1, .left = base->caps.left,
                              .points = base->caps.points, .base = caps_base(base) - kept->naturals};
    if (key->caps.left >= 0 && key->caps.base > key->caps.left) key->caps.base = key->caps.left;
    return 0;
}

/* What the start state of ``shape`` holds of the hand besides its group (``TakeShape.start``, under the caps
 * ``caps``): the rest of the twos, and the natural cards of the top card's rank it leaves in hand among the cards
 * left. */
static void start_rest(const Position *self, const KeptTakes *kept, const TakeShape *shape, const OpeningCaps *caps,
                       int32_t *start) {
    const uint8_t *hand = self->state.hands[kept->t.seat];
    int copies[CARD_TYPES], types = 0;
    for (int c = 0; c < JOKER; c++) {
        if (!self->facts.is_wild[c] || !hand[c]) continue;
        copies[types] = hand[c];
        for (int i = 0; i < kept->wilds; i++)
            if (kept->wild_types[i] == c) copies[types] -= shape->picked[i];
        types++;
    }
    pool_put(start, copies, types);
    int room = caps->left - caps->base, left = kept->naturals - shape->naturals;
    start[OS_USED] = caps->left >= 0 && left > (room > 0 ? room : 0) ? (room > 0 ? room : 0) : left;
}

/* The counting ``shape`` shares: the kept one whose key is ``key``, or a new one; -1 with an exception. */
static int shared_counting(KeptTakes *kept, TakeShape *shape, const CountingKey *key) {
    for (int i = 0; i < kept->counting_count; i++)
        if (memcmp(&kept->countings[i].key, key, sizeof(*key)) == 0) return shape->counting = i + 1, 0;
    TakeCounting *c = &kept->countings[kept->counting_count];
    c->key = *key;
    if (state_table_alloc(&c->below, 64) < 0 || state_table_alloc(&c->verdicts, 16) < 0) {
        state_table_free(&c->below), state_table_free(&c->verdicts);
        return -1;
    }
    shape->counting = ++kept->counting_count;
    return 0;
}

/* Count one shape's actions (``legal._TakeShapes.weight``): the take alone where legal, and its further melds
 * where they may help, counted from the base counting's options with the rest of the hand's wild cards; -1 with
 * an exception. */
static int shape_count(const Position *self, KeptTakes *kept, const ShapeQuestion *q, TakeShape *shape) {
    TakeCount tc;
    int jokers, n = shape->naturals;
    shape_counting(kept, shape, &tc, &jokers);
    int group[4] = {n, tc.fields[2] - jokers, jokers, n * self->facts.melded_value[kept->t.top_rank * 4]};
    if (group_verdict(self, &tc, q, group, shape->start, &shape->alone, &shape->may_help) < 0) return -1;
    shape->extras = 0;
    if (!shape->may_help) return 0;
    if (base_options(self, kept, q) < 0) return -1;
    OpeningCount *oc = &tc.oc, *base = &kept->base.oc;
    oc->options = base->options, oc->rank_count = base->rank_count;
    memcpy(oc->ranks, base->ranks, sizeof(base->ranks)), memcpy(oc->first, base->first, sizeof(base->first));
    memcpy(oc->held, base->held, sizeof(base->held));
    CountingKey key;
    if (counting_key(&tc, kept, &key) < 0 || shared_counting(kept, shape, &key) < 0) return -1;
    shape_counting(kept, shape, &tc, &jokers);
    start_rest(self, kept, shape, &oc->caps, shape->start);
    shape->extras = openings_below(&tc.oc, shape->start);
    shape_keep_tables(kept, shape, &tc);
    return shape->extras < 0 ? -1 : 0;
}

/* Every shape of take group (``movegen.take_groups`` before an opening: every pair, every larger group with a
 * natural card): each choice of the pool's wild cards by type, with each number of its natural cards, counted into
 * ``kept``. -1 with an exception. */
static int shapes_count(const Position *self, KeptTakes *kept, const ShapeQuestion *q) {
    const CardFacts *f = &self->facts;
    const uint8_t *hand = self->state.hands[kept->t.seat];
    int pool[CARD_TYPES], types = take_pool_of(self, &kept->t, pool), naturals[SUITS], natural_types = 0, available = 0;
    int capacity = 1;
    uint8_t picked[CARD_TYPES] = {0};
    kept->wilds = 0;
    for (int i = 0; i < types; i++) {
        if (f->is_wild[pool[i]]) {
            kept->wilds_held[kept->wilds] = hand[pool[i]], kept->wild_types[kept->wilds++] = pool[i];
            capacity *= 1 + hand[pool[i]];
        } else naturals[natural_types++] = hand[pool[i]], available += hand[pool[i]];
    }
    kept->naturals = available;
    long long natural_ways[MAX_CARDS + 1];
    choice_counts(naturals, natural_types, available, natural_ways);
    kept->shapes = PyMem_Calloc((size_t)capacity * (size_t)(available + 1), sizeof(TakeShape));
    kept->countings = PyMem_Calloc((size_t)capacity * (size_t)(available + 1), sizeof(TakeCounting));
    if (kept->shapes == NULL || kept->countings == NULL) return PyErr_NoMemory(), -1;
    for (;;) {
        int chosen = 0;
        for (int i = 0; i < kept->wilds; i++) chosen += picked[i];
        for (int n = 0; n <= available; n++) {
            int size = n + chosen;
            if (size < 2 || (size > 2 && n == 0)) continue;
            TakeShape *shape = &kept->shapes[kept->shape_count++];
            shape->naturals = n, shape->groups = natural_ways[n];
            memcpy(shape->picked, picked, sizeof(picked));
            if (shape_count(self, kept, q, shape) < 0 ||
                count_add_product(&kept->total, shape->alone + shape->extras, shape->groups, "takes") < 0)
                return -1;
        }
        int i = 0; /* the next choice of wild cards, as an odometer over their types */
        while (i < kept->wilds && picked[i] == hand[kept->wild_types[i]]) picked[i++] = 0;
        if (i == kept->wilds) return 0;
        picked[i]++;
    }
}

/* The takes of the seat to act counted into ``kept`` from ``args`` (context, questions, minimum,
 * composition_from_hand), as ``take_count`` takes them; -1 with an exception. The caller releases ``kept``
 * (``kept_takes_release``) either way. */
static int takes_prepare(Position *self, PyObject *args, KeptTakes *kept) {
    PyObject *context, *questions;
    int minimum, from_hand;
    if (!PyArg_ParseTuple(args, "OO!ip", &context, &PyTuple_Type, &questions, &minimum, &from_hand) ||
        read_opening_questions(questions, &kept->q) < 0)
        return -1;
    const ListingContext *c = context_with(context, 0, 1);
    if (c == NULL) return -1;
    const State *s = &self->state;
    int seat = s->to_act;
    if (s->team_opened[s->side_of[seat]] || s->pile_len == 0 || s->turn.phase != PHASE_DRAW) {
        PyErr_SetString(PyExc_ValueError,
                        "native core: take_count asks of the draw phase of a side not opened, its pile not empty");
        return -1;
    }
    Ending e = c->ending;
    e.permission_code = c->draw.out_permission[s->turn.permission];
    e.discard_pending = !s->turn.last_card_bonus;
    table_values_of(self, seat, e.out_values.table);
    TakeCount *base = &kept->base;
    *base = (TakeCount){.oc = {.q = &kept->q, .ending = e, .minimum = minimum, .judge = take_judge,
                               .branches = &kept->branches, .counted = "takes"},
                        .d = &c->draw, .t = &kept->t, .from_hand = from_hand};
    if (state_table_alloc(&kept->branches.found, 16) < 0) return -1;
    if (take_facts_of(self, &c->draw, &c->shapes, &base->oc.ending, &kept->t) < 0 ||
        (kept->t.gained = pile_gain(self, &c->draw, &kept->t)) < 0)
        return -1;
    base->top_points = self->facts.melded_value[kept->t.top];
    memcpy(base->oc.side_kinds, kept->t.kinds, sizeof(kept->t.kinds));
    int32_t start[OS_FIELDS];
    int may_help, alone[4] = {0};
    base->oc.hand_size = kept->t.held + kept->t.gained;
    if (group_verdict(self, base, &c->shapes, alone, start, &kept->top_alone, &may_help) < 0)
        return -1; /* the top card alone: no further melds */
    kept->may_draw = draw_allowed(self, &c->draw, &kept->t, kept->top_alone);
    if (kept->may_draw < 0 || opening_wilds(self, seat, &base->oc) < 0 || shapes_count(self, kept, &c->shapes) < 0)
        return -1;
    return count_add_product(&kept->total, kept->may_draw + kept->top_alone, 1, "takes");
}

/* ``take_count(context, questions, minimum, composition_from_hand)``: how many actions the seat to act (in the
 * draw phase, its side not opened, the pile not empty) may make, as the reference's listing counts them: drawing,
 * the take of the top card alone, and every take group alone or with further melds. ``context``: the draw phase's
 * (``listing.NativeDrawListing``); ``questions`` and ``minimum`` as ``opening_count`` takes them;
 * ``composition_from_hand``: hook initial_meld.composition_from_hand (the top card set aside from what the opening
 * is made of). */
static PyObject *Position_take_count(Position *self, PyObject *args) {
    KeptTakes kept;
    memset(&kept, 0, sizeof(kept));
    int failed = takes_prepare(self, args, &kept) < 0;
    kept_takes_release(&kept);
    return failed ? NULL : count_to_python(kept.total);
}

#define KEPT_TAKES "canasta_ref.core.takes"

static void kept_takes_free(PyObject *capsule) {
    KeptTakes *kept = PyCapsule_GetPointer(capsule, KEPT_TAKES);
    if (kept == NULL) return;
    kept_takes_release(kept);
    PyMem_Free(kept);
}

/* ``take_listing(context, questions, minimum, composition_from_hand)``: the draw phase of the seat to act as
 * ``take_count`` counts it, (may draw, may take the top card alone, the wild card types of the pool, every shape of
 * take group with actions as (its natural cards, its wild cards by type, taken alone, its further melds), the
 * counting kept for ``take_extras_at``). */
static PyObject *Position_take_listing(Position *self, PyObject *args) {
    KeptTakes *kept = PyMem_Calloc(1, sizeof(KeptTakes));
    if (kept == NULL) return PyErr_NoMemory();
    PyObject *capsule = NULL;
    if (takes_prepare(self, args, kept) == 0) capsule = PyCapsule_New(kept, KEPT_TAKES, kept_takes_free);
    if (capsule == NULL) {
        kept_takes_release(kept);
        PyMem_Free(kept);
        return NULL;
    }
    long types[CARD_TYPES];
    for (int i = 0; i < kept->wilds; i++) types[i] = kept->wild_types[i];
    PyObject *shapes = PyList_New(0);
    for (int i = 0; shapes != NULL && i < kept->shape_count; i++) {
        const TakeShape *shape = &kept->shapes[i];
        if (!shape->alone && !shape->extras) continue;
        long picked[CARD_TYPES];
        for (int k = 0; k < kept->wilds; k++) picked[k] = shape->picked[k];
        PyObject *entry = Py_BuildValue("(iNNNi)", shape->naturals, tuple_of_ints(picked, kept->wilds),
                                        PyBool_FromLong(shape->alone), count_to_python(shape->extras), i);
        if (entry == NULL || PyList_Append(shapes, entry) < 0) Py_CLEAR(shapes);
        Py_XDECREF(entry);
    }
    PyObject *found = shapes == NULL ? NULL
                                     : Py_BuildValue("(OONNO)", kept->may_draw ? Py_True : Py_False,
                                                     kept->top_alone ? Py_True : Py_False,
                                                     tuple_of_ints(types, kept->wilds), shapes, capsule);
    Py_DECREF(capsule);
    return found;
}

/* The kept takes of ``capsule`` whose shape ``at`` has further melds (into ``*shape``); NULL with an exception. */
static KeptTakes *kept_shape(PyObject *capsule, int at, TakeShape **shape) {
    KeptTakes *kept = PyCapsule_GetPointer(capsule, KEPT_TAKES);
    if (kept == NULL) return NULL;
    if (at < 0 || at >= kept->shape_count || kept->shapes[at].extras == 0) {
        PyErr_Format(PyExc_IndexError, "native core: no shape %d of take group with further melds", at);
        return NULL;
    }
    *shape = &kept->shapes[at];
    return kept;
}

/* The further melds of ``shape``'s ``index``-th take with them as the choice of shapes its counting descends to
 * (``chosen``: an option per rank of ``tc``'s counting, -1 for none), and its place among that choice's actions; -1
 * with an exception. */
static Count take_extras_descend(KeptTakes *kept, TakeShape *shape, Count index, TakeCount *tc, int *chosen) {
    int jokers;
    shape_counting(kept, shape, tc, &jokers);
    Count place = opening_descend(&tc->oc, shape->start, index, chosen);
    shape_keep_tables(kept, shape, tc);
    return place;
}

/* ``take_extras_at(kept, shape, index)`` (a module function): the ``index``-th take with further melds of a kept
 * shape, in the reference's order (``legal._take_extras``), as (the further melds' shapes: (rank, natural cards,
 * other wild cards, jokers) in rank order, its place among the actions of those shapes, in
 * ``movegen.expand_shapes`` order). */
static PyObject *core_take_extras_at(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *capsule, *number;
    int at, chosen[MELD_RANKS];
    Count index;
    TakeShape *shape;
    TakeCount tc;
    if (!PyArg_ParseTuple(args, "OiO!", &capsule, &at, &PyLong_Type, &number) || count_from_python(number, &index) < 0)
        return NULL;
    KeptTakes *kept = kept_shape(capsule, at, &shape);
    if (kept == NULL) return NULL;
    if (index < 0 || index >= shape->extras)
        return index_past("take", number, shape->extras);
    Count place = take_extras_descend(kept, shape, index, &tc, chosen);
    if (place < 0) return NULL;
    return Py_BuildValue("(NN)", chosen_shapes(&tc.oc, chosen), count_to_python(place));
}

/* -- a take by its index, as random play makes it (``play.c``) ------------------------------------------------- */

/* The choice after ``digits`` in the order ``movegen.submultisets`` lists choices (the most copies of the first type
 * first, the last type turning fastest), each digit at most ``most``: 0 past the last. */
static int next_choice(int *digits, const int *most, int types) {
    for (int i = types - 1; i >= 0; i--)
        if (digits[i] > 0) {
            digits[i]--;
            for (int j = i + 1; j < types; j++) digits[j] = most[j];
            return 1;
        }
    return 0;
}

/* A listing's kept shapes by their counts (``NativeTakeGroups._found``): each shape's place (1 + its index; 0 none)
 * by its natural cards and its wild cards by type (``place_of``), and the actions of every group with so many
 * natural and wild cards together (``weights``, (naturals + 1) x (wild cards + 1)), what ``blocks.TakeGroups`` counts
 * a run of groups by. */
typedef struct {
    int *places, stride[CARD_TYPES], naturals, wilds;
    Count *weights;
} TakeShapeIndex;

/* A shape's place in ``index->places``: its wild cards by type, as digits whose bases are the copies held, then its
 * natural cards. */
static Py_ssize_t shape_key(const TakeShapeIndex *index, const KeptTakes *kept, const int *picked, int naturals) {
    Py_ssize_t code = 0;
    for (int i = 0; i < kept->wilds; i++) code += (Py_ssize_t)picked[i] * index->stride[i];
    return code * (index->naturals + 1) + naturals;
}

static void shape_index_free(TakeShapeIndex *index) { PyMem_Free(index->places), PyMem_Free(index->weights); }

/* ``kept``'s shapes indexed by their counts into ``index``; -1 with an exception. */
static int shape_index_of(const KeptTakes *kept, TakeShapeIndex *index) {
    Py_ssize_t codes = 1;
    index->naturals = kept->naturals, index->wilds = 0;
    for (int i = 0; i < kept->wilds; i++) {
        index->stride[i] = (int)codes;
        codes *= 1 + kept->wilds_held[i], index->wilds += kept->wilds_held[i];
    }
    index->places = PyMem_Calloc((size_t)codes * (size_t)(kept->naturals + 1), sizeof(int));
    index->weights = PyMem_Calloc((size_t)(kept->naturals + 1) * (size_t)(index->wilds + 1), sizeof(Count));
    if (index->places == NULL || index->weights == NULL) return PyErr_NoMemory(), -1;
    for (int s = 0; s < kept->shape_count; s++) {
        const TakeShape *shape = &kept->shapes[s];
        int picked[CARD_TYPES], wilds = 0;
        for (int i = 0; i < kept->wilds; i++) picked[i] = shape->picked[i], wilds += picked[i];
        index->places[shape_key(index, kept, picked, shape->naturals)] = s + 1;
        index->weights[shape->naturals * (index->wilds + 1) + wilds] += shape->alone + shape->extras;
    }
    return 0;
}

/* The actions of one group of ``naturals`` natural cards and wild cards ``picked`` by type: its shape's, if kept. */
static Count group_weight(const TakeShapeIndex *index, const KeptTakes *kept, const int *picked, int naturals,
                          TakeShape **shape) {
    int place = index->places[shape_key(index, kept, picked, naturals)];
    *shape = place ? &kept->shapes[place - 1] : NULL;
    return place ? (*shape)->alone + (*shape)->extras : 0;
}

/* One take group found by its index among a listing's kept takes: its cards from hand (its natural cards, then its
 * wild cards), its shape, and its action's index among the group's (the take alone first where it is legal, then
 * with further melds). */
typedef struct {
    long cards[MAX_ENCODED];
    int n;
    TakeShape *shape;
    Count within;
} TakeGroupAt;

/* The group of natural cards ``digits`` (of the types ``natural_cards``) whose run holds the ``*index``-th action,
 * its wild cards ``wilds`` chosen in ``submultisets`` order, into ``out``; 0, or -1 with an exception. */
static int take_group_in_run(const TakeShapeIndex *index, const KeptTakes *kept, const int *natural_cards,
                             const int *digits, int natural_types, int wilds, Count n, TakeGroupAt *out) {
    int picked[CARD_TYPES], naturals = 0;
    for (int i = 0; i < natural_types; i++) naturals += digits[i];
    memcpy(picked, kept->wilds_held, sizeof(int) * (size_t)kept->wilds);
    do {
        int chosen = 0;
        for (int i = 0; i < kept->wilds; i++) chosen += picked[i];
        if (chosen != wilds) continue;
        Count weight = group_weight(index, kept, picked, naturals, &out->shape);
        if (n >= weight) {
            n -= weight;
            continue;
        }
        if (naturals + wilds + 4 > MAX_ENCODED)
            return PyErr_SetString(PyExc_ValueError, "native core: a take group past an encoded action's size"), -1;
        out->n = 0, out->within = n;
        for (int i = 0; i < natural_types; i++)
            for (int k = 0; k < digits[i]; k++) out->cards[out->n++] = natural_cards[i];
        for (int i = 0; i < kept->wilds; i++)
            for (int k = 0; k < picked[i]; k++) out->cards[out->n++] = kept->wild_types[i];
        return 0;
    } while (next_choice(picked, kept->wilds_held, kept->wilds));
    return PyErr_SetString(PyExc_RuntimeError, "native core: a take's index lost in its run of groups"), -1;
}

/* The ``n``-th take group's action among a listing's kept takes (those after drawing and the top card alone), in
 * ``blocks.TakeGroups`` order: by the group's size, then its natural cards (``_natural_choices``), then its wild
 * cards (``submultisets``), each run of groups with the same natural cards counted by its counts; into ``out``. 0, or
 * -1 with an exception. */
static int take_group_at(const Position *self, const KeptTakes *kept, Count n, TakeGroupAt *out) {
    const uint8_t *hand = self->state.hands[kept->t.seat];
    int pool[CARD_TYPES], types = take_pool_of(self, &kept->t, pool), cards[CARD_TYPES], most[CARD_TYPES];
    int natural_types = 0;
    for (int i = 0; i < types; i++)
        if (!self->facts.is_wild[pool[i]]) cards[natural_types] = pool[i], most[natural_types++] = hand[pool[i]];
    TakeShapeIndex index = {0};
    int found = shape_index_of(kept, &index) < 0 ? -1 : 1;
    for (int size = 2; found == 1 && size <= kept->naturals + index.wilds; size++) {
        int digits[CARD_TYPES];
        memcpy(digits, most, sizeof(int) * (size_t)natural_types);
        do {
            int naturals = 0;
            for (int i = 0; i < natural_types; i++) naturals += digits[i];
            int wilds = size - naturals;
            if (wilds < 0 || wilds > index.wilds || (naturals == 0 && size > 2)) continue;
            Count run = index.weights[naturals * (index.wilds + 1) + wilds];
            if (n < run) {
                found = take_group_in_run(&index, kept, cards, digits, natural_types, wilds, n, out);
                break;
            }
            n -= run;
        } while (next_choice(digits, most, natural_types));
    }
    shape_index_free(&index);
    if (found == 1) PyErr_SetString(PyExc_RuntimeError, "native core: a take's index past its groups");
    return found == 0 ? 0 : -1;
}

/* The module's functions on a listing's kept takes (``_core.c``'s ``core_module``). */
static PyMethodDef take_functions[] = {
    {"take_extras_at", (PyCFunction)core_take_extras_at, METH_VARARGS,
     "take_extras_at(kept, shape, index): (shapes, place) of the index-th take with further melds of a kept shape"},
    {NULL, NULL, 0, NULL},
};

static int take_count_once(Position *self, const void *args) {
    KeptTakes kept;
    memset(&kept, 0, sizeof(kept));
    int failed = takes_prepare(self, (PyObject *)args, &kept) < 0;
    kept_takes_release(&kept);
    return failed ? -1 : 0;
}

/* ``time_take_count(arguments, repeat)``: the takes of a side that has not opened counted in C (``take_count``'s
 * work, ``arguments`` its own), as ``time_listing`` times it. */
static PyObject *Position_time_take_count(Position *self, PyObject *args) {
    PyObject *arguments;
    long repeat;
    if (!PyArg_ParseTuple(args, "O!l", &PyTuple_Type, &arguments, &repeat)) return NULL;
    return time_listing(self, take_count_once, arguments, repeat);
}

