/* The openings of a side that has not opened (play phase), counted without building them.
 *
 * Included by ``../_core.c`` after the listing of play: it reads that part's static helpers (the rank shapes, the
 * gates, the ListingContext). The reference lists an opening as one action laying at most one valid shape per rank
 * (``legal._openings`` / ``legal._opening_family`` over ``combos.Combinations``): every choice of shapes the hand's
 * wild cards pay for, judged as a whole on its aggregate (the groups, the cards left, the points, the wild cards,
 * the canastas by kind, every meld valid kept and going out, what the melds are made of), then made into its cards.
 * Here the choices are counted rank by rank (the ranks in the reference's canonical order), each state after a rank
 * kept with the number of actions below it, so a count costs the distinct states, not the choices; the verdict on
 * a finished aggregate is asked of ``verdict`` (a Python callable) once per distinct aggregate a call meets. */

/* One valid shape of a rank as an option of an opening: its counts, the ways to pick its natural cards, its
 * natural cards' points, the kind of canasta it makes (-1: none), its verdicts, what its meld is made of. */
typedef struct {
    int naturals, twos, jokers, points, kind, staying, leaving, composition;
    long long ways;
} OpeningOption;

/* The fields of a state of the counting, in this order: the rank's place, the groups, the cards used, the natural
 * cards' points, the wild cards and jokers used, the canastas by kind, all kept valid, all valid going out, the
 * composition bits, and the groups that take wild cards by their number of them (4 bits a size, sizes 1 to 14). */
enum {
    OS_INDEX, OS_GROUPS, OS_USED, OS_POINTS, OS_TWOS, OS_JOKERS, OS_KIND0, OS_KIND1, OS_KIND2, OS_STAYING, OS_LEAVING,
    OS_COMPOSITION, OS_SIZES_LOW, OS_SIZES_HIGH, OS_FIELDS
};
#define OPENING_MOST_TWOS 14 /* wild cards (not jokers) in one hand the counting tracks by group size */

/* A table from a state (OS_FIELDS ints) to a count, open addressing, grown at half full. */
typedef struct {
    int32_t *keys;
    long long *values;
    uint8_t *used;
    Py_ssize_t capacity, size;
} StateTable;

static int state_table_alloc(StateTable *t, Py_ssize_t capacity) {
    t->keys = PyMem_Calloc((size_t)capacity * OS_FIELDS, sizeof(int32_t));
    t->values = PyMem_Calloc((size_t)capacity, sizeof(long long));
    t->used = PyMem_Calloc((size_t)capacity, 1);
    t->capacity = capacity, t->size = 0;
    if (t->keys == NULL || t->values == NULL || t->used == NULL) {
        PyMem_Free(t->keys), PyMem_Free(t->values), PyMem_Free(t->used);
        t->keys = NULL, t->values = NULL, t->used = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void state_table_free(StateTable *t) {
    PyMem_Free(t->keys), PyMem_Free(t->values), PyMem_Free(t->used);
    t->keys = NULL, t->values = NULL, t->used = NULL;
}

/* The slot of ``key``: where it is kept, or the empty slot where it goes. */
static Py_ssize_t state_slot(const StateTable *t, const int32_t *key) {
    Py_ssize_t mask = t->capacity - 1, at = (Py_ssize_t)(memo_hash(key, OS_FIELDS) & (uint64_t)mask);
    while (t->used[at] && memcmp(&t->keys[at * OS_FIELDS], key, sizeof(int32_t) * OS_FIELDS) != 0)
        at = (at + 1) & mask;
    return at;
}

static int state_table_put(StateTable *t, const int32_t *key, long long value);

static int state_table_grow(StateTable *t) {
    StateTable bigger;
    if (state_table_alloc(&bigger, t->capacity * 2) < 0) return -1;
    for (Py_ssize_t i = 0; i < t->capacity; i++)
        if (t->used[i]) state_table_put(&bigger, &t->keys[i * OS_FIELDS], t->values[i]);
    state_table_free(t);
    *t = bigger;
    return 0;
}

static int state_table_put(StateTable *t, const int32_t *key, long long value) {
    if ((t->size + 1) * 2 > t->capacity && state_table_grow(t) < 0) return -1;
    Py_ssize_t at = state_slot(t, key);
    if (!t->used[at]) {
        t->used[at] = 1, t->size++;
        memcpy(&t->keys[at * OS_FIELDS], key, sizeof(int32_t) * OS_FIELDS);
    }
    t->values[at] = value;
    return 0;
}

/* The count kept for ``key``, or -1 where none is. */
static long long state_table_get(const StateTable *t, const int32_t *key) {
    Py_ssize_t at = state_slot(t, key);
    return t->used[at] ? t->values[at] : -1;
}

/* One call's counting: the ranks with valid shapes in canonical order, their options, the hand's wild cards, and
 * the tables of the states counted, of the verdicts asked and of the ways to pick the wild cards. */
typedef struct {
    int rank_count, ranks[MELD_RANKS], first[MELD_RANKS + 1];
    OpeningOption *options;
    int twos_pool[CARD_TYPES], two_types, twos_total, jokers, hand_size;
    PyObject *verdict;
    StateTable below, verdicts, twos_ways;
} OpeningCount;

/* The place of a meld rank in the order players read melds (``cards.sort_key`` of its first card): threes up to
 * aces, then twos, then the wild meld. */
static int canonical_place(int rank) { return rank == 0 ? 12 : rank < MELD_RANKS - 2 ? rank - 1 : MELD_RANKS - 2; }

/* What one meld of an opening is made of (``checks.composition_of``): THREE_NATURALS 4, CLEAN 1, WILD 2. */
static int opening_composition_of(int rank, int naturals, int wilds) {
    if (rank == MELD_RANKS - 2) return 2;
    if (naturals < 3) return 0;
    return 4 | (wilds == 0 ? 1 : 0);
}

/* The options of every rank the hand could open with (``legal._melds``: its valid shapes, initial), in canonical
 * order, into ``oc``; -1 with an exception. */
static int opening_options(const Position *self, int seat, const ShapeQuestion *q, int reads_composition,
                           OpeningCount *oc) {
    const State *s = &self->state;
    const CardFacts *f = &self->facts;
    uint32_t ranks = meld_ranks_of(self, seat);
    int ordered[MELD_RANKS], count = 0;
    for (int rank = 0; rank <= MELD_RANKS - 2; rank++)
        if (ranks >> rank & 1) ordered[count++] = rank;
    for (int i = 1; i < count; i++) /* a handful of ranks: insertion sort by canonical place */
        for (int k = i; k > 0 && canonical_place(ordered[k]) < canonical_place(ordered[k - 1]); k--) {
            int swap = ordered[k];
            ordered[k] = ordered[k - 1], ordered[k - 1] = swap;
        }
    oc->rank_count = 0, oc->first[0] = 0;
    for (int i = 0; i < count; i++) {
        int rank = ordered[i], naturals[4], natural_types = 0, available = 0;
        for (int c = 0; c < JOKER; c++)
            if (!f->is_wild[c] && !f->is_bonus[c] && f->rank[c] == rank && s->hands[seat][c])
                naturals[natural_types++] = s->hands[seat][c], available += s->hands[seat][c];
        long long natural_ways[MAX_CARDS + 1];
        choice_counts(naturals, natural_types, available, natural_ways);
        RankShape *shapes;
        Py_ssize_t n = collect_rank_shapes(self, seat, rank, 1, q, &shapes);
        if (n < 0) return -1;
        if (n == 0) {
            PyMem_Free(shapes);
            continue;
        }
        int at = oc->first[oc->rank_count];
        OpeningOption *grown = PyMem_Realloc(oc->options, sizeof(OpeningOption) * (size_t)(at + n));
        if (grown == NULL) {
            PyMem_Free(shapes);
            PyErr_NoMemory();
            return -1;
        }
        oc->options = grown;
        for (Py_ssize_t k = 0; k < n; k++) {
            const RankShape *r = &shapes[k];
            int points = r->naturals ? r->naturals * f->melded_value[rank * 4] : 0;
            int composition = reads_composition ? opening_composition_of(rank, r->naturals, r->twos + r->jokers) : 0;
            oc->options[at + k] = (OpeningOption){r->naturals, r->twos, r->jokers, points, r->new_kind,
                                                  r->staying, r->leaving, composition, natural_ways[r->naturals]};
        }
        PyMem_Free(shapes);
        oc->ranks[oc->rank_count++] = rank;
        oc->first[oc->rank_count] = at + (int)n;
    }
    return 0;
}

/* How many ways the groups of ``state`` that take wild cards pick them from the hand's pool, in rank order
 * (``combos.Combinations._twos_ways``): every sequence of choices of those sizes, the pool shrinking. */
static long long twos_picks(int *pool, int types, const int *sizes, int groups);

/* The picks of the first group's ``left`` cards still to choose, from the pool's types ``type`` on, each followed
 * by the other groups' picks. */
static long long twos_pick_from(int *pool, int types, int type, int left, const int *sizes, int groups) {
    if (left == 0) return twos_picks(pool, types, sizes + 1, groups - 1);
    if (type == types) return 0;
    long long total = 0;
    for (int take = 0; take <= pool[type] && take <= left; take++) {
        pool[type] -= take;
        total += twos_pick_from(pool, types, type + 1, left - take, sizes, groups);
        pool[type] += take;
    }
    return total;
}

static long long twos_picks(int *pool, int types, const int *sizes, int groups) {
    return groups == 0 ? 1 : twos_pick_from(pool, types, 0, sizes[0], sizes, groups);
}

static long long twos_ways_of(OpeningCount *oc, const int32_t *state) {
    int32_t key[OS_FIELDS] = {0};
    key[OS_SIZES_LOW] = state[OS_SIZES_LOW], key[OS_SIZES_HIGH] = state[OS_SIZES_HIGH];
    long long known = state_table_get(&oc->twos_ways, key);
    if (known >= 0) return known;
    int sizes[OPENING_MOST_TWOS], groups = 0;
    for (int size = 1; size <= OPENING_MOST_TWOS; size++) {
        int32_t packed = size <= 7 ? state[OS_SIZES_LOW] : state[OS_SIZES_HIGH];
        int times = (int)(packed >> ((size - 1) % 7 * 4) & 15);
        for (int k = 0; k < times; k++) sizes[groups++] = size;
    }
    int pool[CARD_TYPES];
    memcpy(pool, oc->twos_pool, sizeof(pool));
    long long ways = twos_picks(pool, oc->two_types, sizes, groups);
    return state_table_put(&oc->twos_ways, key, ways) < 0 ? -2 : ways;
}

/* The verdict on a finished state (groups, cards left, points, wild cards, jokers, canastas by kind, canastas
 * made, all valid kept, all valid going out, composition), asked of Python once per distinct one: 1, 0, -1. */
static int opening_accepts(OpeningCount *oc, const int32_t *state) {
    int32_t key[OS_FIELDS];
    memcpy(key, state, sizeof(key));
    key[OS_INDEX] = key[OS_SIZES_LOW] = key[OS_SIZES_HIGH] = 0; /* the verdict reads the wild cards' total alone */
    long long known = state_table_get(&oc->verdicts, key);
    if (known >= 0) return (int)known;
    int made = state[OS_KIND0] + state[OS_KIND1] + state[OS_KIND2];
    PyObject *answer = PyObject_CallFunction(
        oc->verdict, "(iiiiiiiiiNNi)", state[OS_GROUPS], oc->hand_size - state[OS_USED], state[OS_POINTS],
        state[OS_TWOS], state[OS_JOKERS], state[OS_KIND0], state[OS_KIND1], state[OS_KIND2], made,
        PyBool_FromLong(state[OS_STAYING]), PyBool_FromLong(state[OS_LEAVING]), state[OS_COMPOSITION]);
    if (answer == NULL) return -1;
    int accepted = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    if (accepted < 0 || state_table_put(&oc->verdicts, key, accepted) < 0) return -1;
    return accepted;
}

/* ``state`` with ``option`` laid as one more group. */
static void with_option(const int32_t *state, const OpeningOption *o, int32_t *out) {
    memcpy(out, state, sizeof(int32_t) * OS_FIELDS);
    out[OS_GROUPS]++;
    out[OS_USED] += o->naturals + o->twos + o->jokers;
    out[OS_POINTS] += o->points;
    out[OS_TWOS] += o->twos;
    out[OS_JOKERS] += o->jokers;
    if (o->kind >= 0 && o->kind < 3) out[OS_KIND0 + o->kind]++;
    out[OS_STAYING] = out[OS_STAYING] && o->staying;
    out[OS_LEAVING] = out[OS_LEAVING] && o->leaving;
    out[OS_COMPOSITION] |= o->composition;
    if (o->twos) {
        int field = o->twos <= 7 ? OS_SIZES_LOW : OS_SIZES_HIGH;
        out[field] += (int32_t)1 << ((o->twos - 1) % 7 * 4);
    }
}

/* The actions below ``state`` (its rank's place in OS_INDEX): each legal completion weighted by its cards; -1
 * with an exception (an overflow included). */
static long long openings_below(OpeningCount *oc, const int32_t *state) {
    int index = state[OS_INDEX];
    if (index == oc->rank_count) {
        if (state[OS_GROUPS] == 0) return 0;
        int accepted = opening_accepts(oc, state);
        if (accepted <= 0) return accepted;
        long long ways = twos_ways_of(oc, state);
        return ways < -1 ? -1 : ways;
    }
    long long known = state_table_get(&oc->below, state);
    if (known >= 0) return known;
    int32_t next[OS_FIELDS];
    memcpy(next, state, sizeof(next));
    next[OS_INDEX]++;
    long long total = openings_below(oc, next);
    if (total < 0) return -1;
    for (int k = oc->first[index]; k < oc->first[index + 1]; k++) {
        const OpeningOption *o = &oc->options[k];
        if (o->twos > oc->twos_total - state[OS_TWOS] || o->jokers > oc->jokers - state[OS_JOKERS]) continue;
        with_option(state, o, next);
        next[OS_INDEX]++;
        long long below = openings_below(oc, next), product;
        if (below < 0) return -1;
        if (__builtin_mul_overflow(below, o->ways, &product) || __builtin_add_overflow(total, product, &total)) {
            PyErr_SetString(PyExc_OverflowError, "native core: more openings than a 64-bit count holds");
            return -1;
        }
    }
    return state_table_put(&oc->below, state, total) < 0 ? -1 : total;
}

static void opening_count_free(OpeningCount *oc) {
    PyMem_Free(oc->options);
    state_table_free(&oc->below), state_table_free(&oc->verdicts), state_table_free(&oc->twos_ways);
}

/* The hand's wild cards other than jokers, by type, into ``oc``; -1 where more than the counting tracks. */
static int opening_wilds(const Position *self, int seat, OpeningCount *oc) {
    const State *s = &self->state;
    oc->two_types = oc->twos_total = 0;
    for (int c = 0; c < JOKER; c++)
        if (self->facts.is_wild[c] && s->hands[seat][c])
            oc->twos_pool[oc->two_types++] = s->hands[seat][c], oc->twos_total += s->hands[seat][c];
    oc->jokers = s->hands[seat][JOKER];
    if (oc->twos_total > OPENING_MOST_TWOS) {
        PyErr_Format(PyExc_ValueError, "native core: %d wild cards in one hand, more than the %d its openings count",
                     oc->twos_total, OPENING_MOST_TWOS);
        return -1;
    }
    return 0;
}

/* ``opening_count(context, verdict, reads_composition)``: how many openings the seat to act (in play, its side not
 * opened) may lay, as the reference's meld block counts them (``legal._melds``): 0 where hook action.allowed
 * refuses melding, else every choice of valid shapes the verdict accepts, by its cards. ``verdict`` is called with
 * a finished choice's (groups, cards left, natural points, wild cards, jokers, canastas by kind (3), canastas made,
 * all valid kept, all valid going out, composition) and answers whether the opening is legal. */
static PyObject *Position_opening_count(Position *self, PyObject *args) {
    PyObject *context, *verdict;
    int reads_composition;
    if (!PyArg_ParseTuple(args, "OOp", &context, &verdict, &reads_composition)) return NULL;
    const ListingContext *c = context_with(context, 1, 0);
    if (c == NULL) return NULL;
    if (!PyCallable_Check(verdict)) return PyErr_Format(PyExc_TypeError, "native core: the verdict is not callable");
    int seat = self->state.to_act;
    if (self->state.team_opened[self->state.side_of[seat]])
        return PyErr_Format(PyExc_ValueError, "native core: seat %d's side has opened; its melds are single", seat);
    PlayGates g = c->gates;
    Ending e = c->ending;
    gate_flags(self, seat, &g, &e);
    int may_meld = kind_allowed(&g, seat, KIND_MELD);
    if (may_meld <= 0) return may_meld < 0 ? NULL : PyLong_FromLong(0);
    OpeningCount oc = {.verdict = verdict, .hand_size = cards_held(self, seat)};
    long long total = -1;
    if (opening_wilds(self, seat, &oc) == 0 && state_table_alloc(&oc.below, 256) == 0 &&
        state_table_alloc(&oc.verdicts, 64) == 0 && state_table_alloc(&oc.twos_ways, 16) == 0 &&
        opening_options(self, seat, &c->shapes, reads_composition, &oc) == 0) {
        int32_t start[OS_FIELDS] = {0};
        start[OS_STAYING] = start[OS_LEAVING] = 1;
        total = openings_below(&oc, start);
    }
    opening_count_free(&oc);
    return total < 0 ? NULL : PyLong_FromLongLong(total);
}
