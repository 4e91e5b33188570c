/* The openings of a side that has not opened (play phase), counted without building them.
 *
 * Included by ``../_core.c`` after the listing of play: it reads that part's static helpers (the rank shapes, the
 * gates, the ListingContext). The reference lists an opening as one action laying at most one valid shape per rank
 * (``legal._openings`` / ``legal._opening_family`` over ``combos.Combinations``): every choice of shapes the hand's
 * wild cards pay for, judged as a whole on its aggregate (the groups, the cards left, the points, the wild cards,
 * the canastas by kind, every meld valid kept and going out, what the melds are made of), then made into its cards.
 * Here the choices are counted rank by rank (the ranks in the reference's canonical order), each state after a rank
 * kept with the number of actions below it, so a count costs the distinct states, not the choices; each meld's wild
 * cards are picked as its rank passes, the rest kept in the state (as ``takes.c``'s further melds are: one counting
 * for both), so choices that have used the same wild cards in all meet. The verdict on
 * a finished aggregate (``legal._opening_verdict``) is the core's own, each rule question through its memo with the
 * key built here: the number of groups (meld.action), the turn ending legally (go_out.allowed, go_out.keep_card),
 * the initial meld (initial_meld.count, initial_meld.valid, go_out.concealed); kept per call by aggregate. */

/* A count of actions: 128 bits where the compiler has them (a hand of 60 cards passes 64 bits), else 64, the
 * overflow checked either way. Signed, so that -1 stays both the tables' "none kept" and the error return: 127
 * bits hold every bundled deck's counts. */
#ifdef __SIZEOF_INT128__
typedef __int128 Count;
#define COUNT_BITS 128
#else
typedef long long Count;
#define COUNT_BITS 64
#endif

/* ``n`` (not negative) as a Python int, built from its two 64-bit halves past what a long long holds. */
static PyObject *count_to_python(Count n) {
    if (n <= (Count)LLONG_MAX) return PyLong_FromLongLong((long long)n);
#ifdef __SIZEOF_INT128__
    PyObject *high = PyLong_FromUnsignedLongLong((unsigned long long)(n >> 64)), *shift = PyLong_FromLong(64);
    PyObject *low = PyLong_FromUnsignedLongLong((unsigned long long)n);
    PyObject *shifted = high == NULL || shift == NULL ? NULL : PyNumber_Lshift(high, shift);
    PyObject *whole = shifted == NULL || low == NULL ? NULL : PyNumber_Or(shifted, low);
    Py_XDECREF(high), Py_XDECREF(shift), Py_XDECREF(low), Py_XDECREF(shifted);
    return whole;
#else
    return PyLong_FromLongLong((long long)n);
#endif
}

/* The Python int ``number`` as a count into ``*out``: 0, or -1 with an exception (OverflowError past what a
 * count holds, TypeError for another type). */
static int count_from_python(PyObject *number, Count *out) {
    int overflow;
    long long small = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (small == -1 && PyErr_Occurred()) return -1;
    if (!overflow) return *out = small, 0;
#ifdef __SIZEOF_INT128__
    if (overflow > 0) {
        PyObject *shift = PyLong_FromLong(64), *high = shift == NULL ? NULL : PyNumber_Rshift(number, shift);
        long long top = high == NULL ? -1 : PyLong_AsLongLong(high); /* past 127 bits: OverflowError */
        Py_XDECREF(shift), Py_XDECREF(high);
        if (top == -1 && PyErr_Occurred()) return -1;
        *out = (Count)top << 64 | (Count)PyLong_AsUnsignedLongLongMask(number);
        return 0;
    }
#endif
    PyErr_Format(PyExc_OverflowError, "native core: %R is past what its %d-bit count holds", number, COUNT_BITS);
    return -1;
}

/* An IndexError: ``what`` ``index`` (a Python int) past ``total``, as "opening 7 of 7" says it; NULL. */
static PyObject *index_past(const char *what, PyObject *index, Count total) {
    PyObject *number = count_to_python(total);
    if (number != NULL) PyErr_Format(PyExc_IndexError, "native core: %s %S of %S", what, index, number);
    Py_XDECREF(number);
    return NULL;
}

/* ``*total`` plus ``count`` times ``weight``: 0, or -1 with an OverflowError naming ``what`` past what a count
 * holds (the caller then declines the position). */
static int count_add_product(Count *total, Count count, Count weight, const char *what) {
    Count product;
    if (__builtin_mul_overflow(count, weight, &product) || __builtin_add_overflow(*total, product, total)) {
        PyErr_Format(PyExc_OverflowError, "native core: more %s than its %d-bit count holds", what, COUNT_BITS);
        return -1;
    }
    return 0;
}

/* One valid shape of a rank as an option of an opening: its counts, the ways to pick its natural cards, its
 * natural cards' points, the kind of canasta it makes (-1: none), its verdicts, what its meld is made of. */
typedef struct {
    int naturals, twos, jokers, points, kind, staying, leaving, composition;
    long long ways;
} OpeningOption;

/* The fields of a state of the counting, in this order: the rank's place, the groups, the cards used (where the
 * counting caps its states, ``OpeningCaps``: the cards left so far beyond the hand's other cards), the natural
 * cards' points, the wild cards and jokers used, the canastas by kind, all kept valid, all valid going out, the
 * composition bits, and the rest of the hand's wild cards (jokers apart) not laid yet, by copies (``pool_put``). */
enum {
    OS_INDEX, OS_GROUPS, OS_USED, OS_POINTS, OS_TWOS, OS_JOKERS, OS_KIND0, OS_KIND1, OS_KIND2, OS_STAYING, OS_LEAVING,
    OS_COMPOSITION, OS_SIZES_LOW, OS_SIZES_HIGH, OS_FIELDS
};
#define OPENING_MOST_TWOS 14 /* wild cards (not jokers) in one hand the counting tracks by copies */

/* A table from a state (OS_FIELDS ints) to a count, open addressing, grown at half full. */
typedef struct {
    int32_t *keys;
    Count *values;
    uint8_t *used;
    Py_ssize_t capacity, size;
} StateTable;

static int state_table_alloc(StateTable *t, Py_ssize_t capacity) {
    t->keys = PyMem_Calloc((size_t)capacity * OS_FIELDS, sizeof(int32_t));
    t->values = PyMem_Calloc((size_t)capacity, sizeof(Count));
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

/* A state's hash: its fields two at a time as 64-bit words, each times its own odd constant (products side by
 * side, not the chain of a field at a time that ``memo_hash`` makes: a big count looks states up millions of
 * times), then mixed so that every field reaches the low bits a table reads. */
static uint64_t state_hash(const int32_t *key) {
    static const uint64_t odd[OS_FIELDS / 2] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
                                                0xD6E8FEB86659FD93ull, 0xFF51AFD7ED558CCDull, 0xC4CEB9FE1A85EC53ull,
                                                0x94D049BB133111EBull};
    uint64_t h = 0;
    for (int i = 0; i < OS_FIELDS / 2; i++)
        h += ((uint64_t)(uint32_t)key[2 * i] | (uint64_t)(uint32_t)key[2 * i + 1] << 32) * odd[i];
    h ^= h >> 32;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ h >> 29;
}

/* The slot of ``key``: where it is kept, or the empty slot where it goes. */
static Py_ssize_t state_slot(const StateTable *t, const int32_t *key) {
    Py_ssize_t mask = t->capacity - 1, at = (Py_ssize_t)(state_hash(key) & (uint64_t)mask);
    while (t->used[at] && memcmp(&t->keys[at * OS_FIELDS], key, sizeof(int32_t) * OS_FIELDS) != 0)
        at = (at + 1) & mask;
    return at;
}

static int state_table_put(StateTable *t, const int32_t *key, Count value);

static int state_table_grow(StateTable *t) {
    StateTable bigger;
    if (state_table_alloc(&bigger, t->capacity * 2) < 0) return -1;
    for (Py_ssize_t i = 0; i < t->capacity; i++)
        if (t->used[i]) state_table_put(&bigger, &t->keys[i * OS_FIELDS], t->values[i]);
    state_table_free(t);
    *t = bigger;
    return 0;
}

static int state_table_put(StateTable *t, const int32_t *key, Count value) {
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
static Count state_table_get(const StateTable *t, const int32_t *key) {
    Py_ssize_t at = state_slot(t, key);
    return t->used[at] ? t->values[at] : -1;
}

/* The rests of the twos a meld's wild cards may leave of a rest (``pool_branches``), each with the ways to
 * pick the cards that leave it. */
typedef struct {
    int32_t low, high;
    long long ways;
} PoolBranch;

/* The branches found so far, kept by (rest, wild cards picked): the counting asks the same few thousands of times. */
typedef struct {
    StateTable found; /* (rest, wild cards) -> first branch * BRANCHES_MOST + their number */
    PoolBranch *branches;
    Py_ssize_t size, capacity;
} PoolBranches;

/* The most rests one pick may leave: sorted copies of at most OPENING_MOST_TWOS cards (p(14) = 135). */
#define BRANCHES_MOST 256

/* -- the rest of the hand's twos, in the state ---------------------------------------------------------------- */

/* An opening's melds, and a take's further melds, draw their wild cards (jokers apart) from the rest of the hand's
 * (what the take's group leaves). The counting keeps that rest in the state, by copies, most first, whatever the
 * cards (the ways to pick from it hang on its copies alone), 4 bits a type in two fields: each meld's wild cards
 * are picked as the counting passes its rank (``pool_branches``), so a finished state's actions need no ways of
 * picking them, states that have used the same wild cards in all meet, and every group's further melds share one
 * counting. */
#define POOL_SLOT_BITS 4
#define POOL_SLOTS_A_FIELD 7

static void pool_put(int32_t *state, const int *copies, int types) {
    int sorted[OPENING_MOST_TWOS], n = 0;
    for (int i = 0; i < types; i++) {
        if (copies[i] <= 0) continue;
        int at = n++;
        for (; at > 0 && sorted[at - 1] < copies[i]; at--) sorted[at] = sorted[at - 1];
        sorted[at] = copies[i];
    }
    state[OS_SIZES_LOW] = state[OS_SIZES_HIGH] = 0;
    for (int i = 0; i < n; i++)
        state[i < POOL_SLOTS_A_FIELD ? OS_SIZES_LOW : OS_SIZES_HIGH] |= sorted[i]
                                                                        << (i % POOL_SLOTS_A_FIELD * POOL_SLOT_BITS);
}

/* The rest of ``state`` by copies into ``copies``, most first: how many types. */
static int pool_get(const int32_t *state, int copies[OPENING_MOST_TWOS]) {
    int n = 0;
    for (int i = 0; i < OPENING_MOST_TWOS; i++) {
        int32_t packed = i < POOL_SLOTS_A_FIELD ? state[OS_SIZES_LOW] : state[OS_SIZES_HIGH];
        int held = (int)(packed >> (i % POOL_SLOTS_A_FIELD * POOL_SLOT_BITS) & ((1 << POOL_SLOT_BITS) - 1));
        if (held) copies[n++] = held;
    }
    return n;
}

/* Every pick of ``left`` cards from the types ``type`` on of ``copies`` (``rest`` what is left of each), each rest
 * it leaves added to ``found`` (``*n`` of them) with its ways. */
static void picks_leaving(int *copies, int types, int type, int left, int *rest, PoolBranch *found, int *n) {
    if (left == 0) {
        int32_t state[OS_FIELDS];
        pool_put(state, rest, types);
        for (int k = 0; k < *n; k++)
            if (found[k].low == state[OS_SIZES_LOW] && found[k].high == state[OS_SIZES_HIGH]) {
                found[k].ways++;
                return;
            }
        found[(*n)++] = (PoolBranch){state[OS_SIZES_LOW], state[OS_SIZES_HIGH], 1};
        return;
    }
    if (type == types) return;
    for (int take = 0; take <= copies[type] && take <= left; take++) {
        rest[type] = copies[type] - take;
        picks_leaving(copies, types, type + 1, left - take, rest, found, n);
    }
    rest[type] = copies[type];
}

/* The rests ``twos`` wild cards picked from the rest in ``state`` may leave (``movegen.submultisets`` of it, as the
 * reference's expansion picks them), kept in ``b``: the first's place into ``*first``, their number; -1 with an
 * exception. */
static int pool_branches(PoolBranches *b, const int32_t *state, int twos, Py_ssize_t *first) {
    int32_t key[OS_FIELDS] = {0};
    key[0] = state[OS_SIZES_LOW], key[1] = state[OS_SIZES_HIGH], key[2] = twos;
    Count known = state_table_get(&b->found, key);
    if (known >= 0) return *first = (Py_ssize_t)(known / BRANCHES_MOST), (int)(known % BRANCHES_MOST);
    int copies[OPENING_MOST_TWOS], rest[OPENING_MOST_TWOS], types = pool_get(state, copies), n = 0;
    PoolBranch found[BRANCHES_MOST];
    memcpy(rest, copies, sizeof(rest));
    picks_leaving(copies, types, 0, twos, rest, found, &n);
    if (b->size + n > b->capacity) {
        Py_ssize_t capacity = (b->size + n) * 2;
        PoolBranch *grown = PyMem_Realloc(b->branches, sizeof(PoolBranch) * (size_t)capacity);
        if (grown == NULL) return PyErr_NoMemory(), -1;
        b->branches = grown, b->capacity = capacity;
    }
    memcpy(&b->branches[b->size], found, sizeof(PoolBranch) * (size_t)n);
    *first = b->size;
    b->size += n;
    return state_table_put(&b->found, key, (Count)*first * BRANCHES_MOST + n) < 0 ? -1 : n;
}

static void pool_branches_free(PoolBranches *b) {
    state_table_free(&b->found);
    PyMem_Free(b->branches);
    b->branches = NULL;
}

/* The initial meld's questions, bound once a variant (``listing.NativeOpenings``): the memos of
 * initial_meld.count (a number), initial_meld.valid (a failing clause) and go_out.concealed (a predicate), the points
 * of a wild card other than a joker and of a joker, and whether a clause reads what the melds are made of. */
typedef struct {
    RuleMemo *count, *valid, *concealed;
    int twos_points, joker_points, reads_composition;
} OpeningQuestions;

/* Where an opening's verdict stops changing (``legal._opening_family``'s ``Caps``), so that states above merge and a
 * count costs what the verdict tells apart, not every sum a big hand reaches: the groups from ``groups``
 * (meld.action alike from there), the cards left from ``left`` (go_out.keep_card alike from two; -1: counted
 * exactly), the points from ``points`` (the initial meld's verdict alike from there for every canastas made,
 * cards left and composition the hand could give; -1: counted exactly). ``base``: the hand's cards of no rank
 * with options, which no opening lays; the state's field adds each rank's natural cards not laid as it passes, and
 * a finished state the wild cards it left unused. All 0 (``on`` 0) where a counting is not capped. A take's
 * further melds (``takes.c``) are capped alike, each cap found on the take's own verdict (pile.take for the groups,
 * the initial meld taking the pile for the points). */
typedef struct {
    int on, groups, left, points, base;
} OpeningCaps;

/* One call's counting: the ranks with valid shapes in canonical order, their options and natural cards held, the
 * hand's wild cards, and the tables of the states counted, of the verdicts asked and of the ways to pick the wild
 * cards; ``judge``, the verdict on a finished state (an opening's, or a take's with further melds: ``takes.c``). */
typedef struct OpeningCount {
    int rank_count, ranks[MELD_RANKS], first[MELD_RANKS + 1], held[MELD_RANKS];
    OpeningCaps caps;
    OpeningOption *options;
    int twos_pool[CARD_TYPES], two_types, twos_total, jokers, hand_size;
    const OpeningQuestions *q;
    PlayGates gates;
    Ending ending;
    int32_t table[TABLE_WIDTH];
    int side_kinds[4], minimum;
    StateTable below, verdicts;
    PoolBranches *branches; /* the rests of the wild cards' picks, shared by a listing's countings */
    const char *counted;    /* what it counts, as an overflow names it */
    int (*judge)(struct OpeningCount *oc, const int32_t *state);
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

/* The options of every rank the hand could open with (``legal._melds``: its valid shapes, initial) but
 * ``skip_rank`` (-1: none), in canonical order (or, ``canonical`` 0, in rank order, as a take's further melds are:
 * ``legal._take_extras``), into ``oc``; -1 with an exception. */
static int opening_options(const Position *self, int seat, const ShapeQuestion *q, int reads_composition,
                           int skip_rank, int canonical, OpeningCount *oc) {
    const State *s = &self->state;
    const CardFacts *f = &self->facts;
    uint32_t ranks = meld_ranks_of(self, seat);
    int ordered[MELD_RANKS], count = 0;
    for (int rank = 0; rank <= MELD_RANKS - 2; rank++)
        if (ranks >> rank & 1 && rank != skip_rank) ordered[count++] = rank;
    for (int i = 1; canonical && i < count; i++) /* a handful of ranks: insertion sort by canonical place */
        for (int k = i; k > 0 && canonical_place(ordered[k]) < canonical_place(ordered[k - 1]); k--) {
            int swap = ordered[k];
            ordered[k] = ordered[k - 1], ordered[k - 1] = swap;
        }
    oc->rank_count = 0, oc->first[0] = 0;
    for (int i = 0; i < count; i++) {
        int rank = ordered[i], naturals[SUITS], natural_types = 0, available = 0;
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
        oc->held[oc->rank_count] = available;
        oc->ranks[oc->rank_count++] = rank;
        oc->first[oc->rank_count] = at + (int)n;
    }
    return 0;
}

/* Hook initial_meld.count on the opening's points (the top card's apart, where it takes the pile) and canastas by
 * kind (a number; -1 with an exception). */
static long initial_count(const OpeningQuestions *q, int points, int top_points, const int kinds[4]) {
    KeyValues v = {.arguments = {points, top_points, kinds[0], kinds[1], kinds[2], kinds[3]}};
    PyObject *answer = ask_built(q->count, &v);
    return answer == NULL ? -1 : PyLong_AsLong(answer);
}

/* Hook go_out.concealed for an opening (``checks.goes_out_concealed``): a side that has not opened has melded
 * nothing before nor added to a meld, and has not taken the pile this turn (taking it would have opened it). */
static int opening_concealed(const OpeningQuestions *q, int made_canasta) {
    KeyValues v = {.arguments = {0, 0, made_canasta, 0}};
    return predicate_holds(q->concealed, &v);
}

/* The initial-meld hooks on an opening from hand (``movegen.opening_accepted``): its points, the canastas it makes
 * ``made`` (by kind), the cards it leaves; 1, 0, or -1 with an exception. */
static int opening_meets_minimum(OpeningCount *oc, int points, const int made[4], int hand_after, int composition) {
    const OpeningQuestions *q = oc->q;
    int made_canasta = made[0] + made[1] + made[2] + made[3] > 0, concealed = 0, by_discard = 0;
    if (hand_after <= 1) {
        int hidden = opening_concealed(q, made_canasta);
        if (hidden < 0) return -1;
        concealed = hand_after == 0 && hidden;
        if (hand_after == 1 && hidden) {
            int after[4];
            for (int k = 0; k < 4; k++) after[k] = oc->side_kinds[k] + made[k];
            by_discard = may_go_out_with(&oc->ending, after);
            if (by_discard < 0) return -1;
        }
    }
    long count = initial_count(q, points, 0, made);
    if (count == -1 && PyErr_Occurred()) return -1;
    KeyValues v = {.arguments = {(int32_t)count, oc->minimum, concealed, by_discard, 0, composition & 1,
                                 composition >> 1 & 1, composition >> 2 & 1, made[0], made[1], made[2]}};
    PyObject *answer = ask_built(q->valid, &v);
    return answer == NULL ? -1 : answer == Py_None;
}

/* The cards a finished state leaves in hand: its wild cards unused among them, capped where the counting is. */
static int state_hand_after(const OpeningCount *oc, const int32_t *state) {
    if (!oc->caps.on) return oc->hand_size - state[OS_USED];
    int left = oc->caps.base + state[OS_USED] + oc->twos_total - state[OS_TWOS] + oc->jokers - state[OS_JOKERS];
    return oc->caps.left >= 0 && left > oc->caps.left ? oc->caps.left : left;
}

/* What ``legal._opening_shape_ok`` judges: the number of groups (meld.action), every meld valid kept or going out
 * as the opening ends the turn, and the ending itself; 1, 0, or -1 with an exception. */
static int opening_shape_fine(OpeningCount *oc, const int32_t *state, const int made[4]) {
    KeyValues v = {.arguments = {oc->gates.meld_action_phase, state[OS_GROUPS], 0, 1}};
    memcpy(v.table, oc->table, sizeof(v.table));
    int groups = answer_is_none(oc->gates.meld_action, &v);
    if (groups <= 0) return groups;
    int after[4], hand_after = state_hand_after(oc, state);
    for (int k = 0; k < 4; k++) after[k] = oc->side_kinds[k] + made[k];
    RankShape whole = {.staying = state[OS_STAYING], .leaving = state[OS_LEAVING]};
    return single_meld_fine(&oc->ending, &whole, hand_after, after);
}

/* The points of a finished state's cards: its natural cards', its wild cards' and jokers' (capped where the
 * counting is: the verdict is the same above the cap). */
static int state_points(const OpeningCount *oc, const int32_t *state) {
    int points = state[OS_POINTS] + state[OS_TWOS] * oc->q->twos_points + state[OS_JOKERS] * oc->q->joker_points;
    return oc->caps.points >= 0 && oc->caps.on && points > oc->caps.points ? oc->caps.points : points;
}

/* The verdict on a finished opening (``legal._opening_verdict``, on the state as the counting caps it): 1, 0, or -1
 * with an exception. */
static int opening_judge(OpeningCount *oc, const int32_t *state) {
    int made[4] = {state[OS_KIND0], state[OS_KIND1], state[OS_KIND2], 0};
    int accepted = opening_shape_fine(oc, state, made);
    if (accepted <= 0) return accepted;
    return opening_meets_minimum(oc, state_points(oc, state), made, state_hand_after(oc, state),
                                 state[OS_COMPOSITION]);
}

/* The verdict on a finished state (``oc->judge``), kept per call by its aggregate (the wild cards by their total
 * alone, which is all a verdict reads): 1, 0, or -1 with an exception. */
static int opening_accepts(OpeningCount *oc, const int32_t *state) {
    int32_t key[OS_FIELDS];
    memcpy(key, state, sizeof(key));
    key[OS_INDEX] = key[OS_SIZES_LOW] = key[OS_SIZES_HIGH] = 0;
    Count known = state_table_get(&oc->verdicts, key);
    if (known >= 0) return (int)known;
    int accepted = oc->judge(oc, state);
    if (accepted < 0 || state_table_put(&oc->verdicts, key, accepted) < 0) return -1;
    return accepted;
}

/* The first state of an opening's counting: nothing laid, every meld valid. */
static void opening_start(int32_t *start) {
    memset(start, 0, sizeof(int32_t) * OS_FIELDS);
    start[OS_STAYING] = start[OS_LEAVING] = 1;
}

/* The first state of an opening's counting from hand: nothing laid, the hand's wild cards (jokers apart) all left. */
static void opening_first(const OpeningCount *oc, int32_t *start) {
    opening_start(start);
    pool_put(start, oc->twos_pool, oc->two_types);
}

/* ``state`` with ``option`` laid as one more group, the rank's place not moved. */
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

/* The state after the rank at ``index`` from ``state``: ``o`` laid (NULL: no group of the rank), each capped field
 * at most its cap where the counting is capped (the rank's natural cards not laid then join the cards left). */
static void opening_step(const OpeningCount *oc, const int32_t *state, int index, const OpeningOption *o,
                         int32_t *out) {
    if (o == NULL) memcpy(out, state, sizeof(int32_t) * OS_FIELDS);
    else with_option(state, o, out);
    out[OS_INDEX] = index + 1;
    const OpeningCaps *caps = &oc->caps;
    if (!caps->on) return;
    out[OS_USED] = state[OS_USED] + oc->held[index] - (o == NULL ? 0 : o->naturals);
    int room = caps->left - caps->base;
    if (caps->left >= 0 && out[OS_USED] > (room > 0 ? room : 0)) out[OS_USED] = room > 0 ? room : 0;
    if (out[OS_GROUPS] > caps->groups) out[OS_GROUPS] = caps->groups;
    if (caps->points >= 0 && out[OS_POINTS] > caps->points) out[OS_POINTS] = caps->points;
}

static Count openings_below(OpeningCount *oc, const int32_t *state);

/* The actions below ``state`` with the option ``o`` laid at the rank at ``index`` (NULL: none of the rank): summed over
 * the rests of the twos its wild cards may leave, each by the ways to pick them. -1 with an exception. */
static Count option_below(OpeningCount *oc, const int32_t *state, int index, const OpeningOption *o) {
    int32_t next[OS_FIELDS];
    opening_step(oc, state, index, o, next);
    next[OS_SIZES_LOW] = state[OS_SIZES_LOW], next[OS_SIZES_HIGH] = state[OS_SIZES_HIGH];
    if (o == NULL || o->twos == 0) return openings_below(oc, next);
    Py_ssize_t first;
    int n = pool_branches(oc->branches, state, o->twos, &first);
    Count total = 0;
    for (int k = 0; k < n; k++) {
        PoolBranch b = oc->branches->branches[first + k]; /* a copy: the branches may move as the counting goes */
        next[OS_SIZES_LOW] = b.low, next[OS_SIZES_HIGH] = b.high;
        Count below = openings_below(oc, next);
        if (below < 0 || count_add_product(&total, below, b.ways, oc->counted) < 0) return -1;
    }
    return n < 0 ? -1 : total;
}

/* Whether the state's rest of the wild cards pays for ``o``'s. */
static int option_affordable(const OpeningCount *oc, const int32_t *state, const OpeningOption *o) {
    return o->twos <= oc->twos_total - state[OS_TWOS] && o->jokers <= oc->jokers - state[OS_JOKERS];
}

/* The openings (or a take's further melds) below ``state`` (its rank's place in OS_INDEX): each meld's wild cards
 * picked from the rest in the state (``option_below``), none of the rank first, then each option; a finished state
 * with a meld counts one where the verdict (``oc->judge``) accepts it. -1 with an exception (an overflow included). */
static Count openings_below(OpeningCount *oc, const int32_t *state) {
    int index = state[OS_INDEX];
    if (index == oc->rank_count) return state[OS_GROUPS] == 0 ? 0 : opening_accepts(oc, state);
    Count total = state_table_get(&oc->below, state);
    if (total >= 0) return total;
    total = 0;
    for (int k = oc->first[index] - 1; k < oc->first[index + 1]; k++) {
        const OpeningOption *o = k < oc->first[index] ? NULL : &oc->options[k];
        if (o != NULL && !option_affordable(oc, state, o)) continue;
        Count below = option_below(oc, state, index, o);
        if (below < 0 || count_add_product(&total, below, o == NULL ? 1 : o->ways, oc->counted) < 0) return -1;
    }
    return state_table_put(&oc->below, state, total) < 0 ? -1 : total;
}

/* A state a descent has reached, with the ways it is reached by: the natural and wild cards of the melds chosen so
 * far, picked. */
typedef struct {
    int32_t state[OS_FIELDS];
    Count ways;
} Reached;

/* ``state`` reached ``ways`` more ways, into the ``*n`` states of ``reached`` (the same state once); -1 with an
 * exception naming what is counted (``counted``: openings or takes). */
static int reached_add(Reached *reached, int *n, const int32_t *state, Count ways, const char *counted) {
    for (int k = 0; k < *n; k++)
        if (memcmp(reached[k].state, state, sizeof(int32_t) * OS_FIELDS) == 0)
            return count_add_product(&reached[k].ways, ways, 1, counted);
    if (*n == BRANCHES_MOST)
        return PyErr_SetString(PyExc_RuntimeError, "native core: a descent reaches too many states"), -1;
    memcpy(reached[*n].state, state, sizeof(int32_t) * OS_FIELDS);
    reached[(*n)++].ways = ways;
    return 0;
}

/* The states after the rank at ``index`` from the ``n`` states of ``from``, ``o`` laid there (NULL: none), into
 * ``to``, and the actions below them all into ``*below``: how many states; -1 with an exception. */
static int reached_after(OpeningCount *oc, const Reached *from, int n, int index, const OpeningOption *o, Reached *to,
                         Count *below) {
    int reached = 0;
    *below = 0;
    for (int i = 0; i < n; i++) {
        int32_t next[OS_FIELDS];
        opening_step(oc, from[i].state, index, o, next);
        Count ways = 0;
        if (count_add_product(&ways, from[i].ways, o == NULL ? 1 : o->ways, oc->counted) < 0) return -1;
        next[OS_SIZES_LOW] = from[i].state[OS_SIZES_LOW], next[OS_SIZES_HIGH] = from[i].state[OS_SIZES_HIGH];
        Py_ssize_t first = 0;
        int branches = o == NULL || o->twos == 0 ? 1 : pool_branches(oc->branches, from[i].state, o->twos, &first);
        for (int k = 0; k < branches; k++) {
            Count picked = 0;
            if (o != NULL && o->twos) {
                const PoolBranch *b = &oc->branches->branches[first + k];
                next[OS_SIZES_LOW] = b->low, next[OS_SIZES_HIGH] = b->high;
            }
            long long times = o != NULL && o->twos ? oc->branches->branches[first + k].ways : 1;
            Count count = openings_below(oc, next);
            if (count < 0 || count_add_product(&picked, ways, times, oc->counted) < 0 ||
                count_add_product(below, count, picked, oc->counted) < 0 || reached_add(to, &reached, next, picked, oc->counted) < 0)
                return -1;
        }
        if (branches < 0) return -1;
    }
    return reached;
}

/* The choice of shapes (an option per rank, -1 for none, into ``chosen``) of the ``n``-th opening (or take with
 * further melds) below ``start`` in the reference's order (by the choice at each rank, none first, then each option;
 * within one choice by its cards), and its place among that choice's actions. The states a choice reaches differ only in the rest of the twos its wild cards leave; their actions
 * together, weighted by the ways each is reached, are the choice's: the descent keeps them all, so a choice's
 * actions stay together. -1 with an exception. */
static Count opening_descend(OpeningCount *oc, const int32_t *start, Count n, int *chosen) {
    Reached *now = PyMem_Malloc(sizeof(Reached) * BRANCHES_MOST * 2), *next = now + BRANCHES_MOST;
    if (now == NULL) return PyErr_NoMemory(), -1;
    int count = 1;
    memcpy(now[0].state, start, sizeof(now[0].state));
    now[0].ways = 1;
    for (int index = 0; index < oc->rank_count && n >= 0; index++) {
        Count below;
        int reached = reached_after(oc, now, count, index, NULL, next, &below);
        chosen[index] = -2;
        for (int k = oc->first[index] - 1; reached >= 0 && k < oc->first[index + 1]; k++) {
            if (k >= oc->first[index]) {
                const OpeningOption *o = &oc->options[k];
                if (!option_affordable(oc, now[0].state, o)) continue;
                reached = reached_after(oc, now, count, index, o, next, &below);
                if (reached < 0) break;
            }
            if (n < below) {
                Reached *swap = now;
                now = next, next = swap, count = reached;
                chosen[index] = k - oc->first[index];
                break;
            }
            n -= below;
        }
        if (reached < 0) n = -1;
        else if (chosen[index] == -2) {
            PyErr_SetString(PyExc_RuntimeError, "native core: an opening's or take's index lost");
            n = -1;
        }
    }
    PyMem_Free(now < next ? now : next);
    return n;
}

/* -- the caps: where the verdict stops changing ------------------------------------------------------------- */

/* Whether ``memo``'s key reads the caller's value at ``place``: a value it does not read cannot change an answer. */
static int memo_reads_argument(const RuleMemo *memo, int place) {
    for (int i = 0; i < memo->width; i++)
        if (memo->source[i] == KEY_ARGUMENT && memo->place[i] == place) return 1;
    return 0;
}

/* The greatest common divisor of two points values (of 0 and ``b``: ``b``). */
static int gcd_of(int a, int b) {
    while (b) {
        int r = a % b;
        a = b, b = r;
    }
    return a < 0 ? -a : a;
}

/* The first of ``n`` answers from which every answer equals the last (``openings.constant_from``). */
static int constant_from(const int *answers, int n) {
    int at = n - 1;
    while (at > 0 && answers[at - 1] == answers[n - 1]) at--;
    return at;
}

/* The groups from which meld.action answers alike, at least 1 (``legal._groups_cap``); -1 with an exception. */
static int groups_cap(OpeningCount *oc) {
    int answers[MELD_RANKS + 1];
    for (int groups = 0; groups <= oc->rank_count; groups++) {
        KeyValues v = {.arguments = {oc->gates.meld_action_phase, groups, 0, 1}};
        memcpy(v.table, oc->table, sizeof(v.table));
        if ((answers[groups] = answer_is_none(oc->gates.meld_action, &v)) < 0) return -1;
    }
    int cap = constant_from(answers, oc->rank_count + 1);
    return cap > 1 ? cap : 1;
}

/* 2 where go_out.keep_card answers alike for every two cards or more the hand could keep, going out allowed or
 * not (``openings.left_cap``), else -1 (the cards left counted exactly); -2 with an exception. */
static int left_cap(OpeningCount *oc) {
    Ending *e = &oc->ending;
    int32_t *a = e->keep_values.arguments;
    for (int may = 0; may <= 1; may++) {
        int first = -1;
        for (int kept = 2; kept <= oc->hand_size; kept++) {
            a[0] = kept, a[1] = e->discard_pending, a[2] = may;
            PyObject *answer = ask_built(e->keep_card, &e->keep_values);
            if (answer == NULL) return -2;
            if (first < 0) first = answer == Py_None;
            else if (first != (answer == Py_None)) return -1;
        }
    }
    return 2;
}

/* What the points cap is found over: the canastas by kind a clause reads (the most of each the hand could make,
 * one a rank with a shape of that kind; 0 for a kind nothing reads), the compositions the options could give. */
typedef struct {
    int most[3], compositions, highest, unit;
} PointsReach;

/* Whether some question of an opening's verdict reads the canastas made of ``kind``: initial_meld.count's,
 * initial_meld.valid's, and going out's (go_out.concealed reads whether one is made, go_out.allowed their total). */
static int kind_read(const OpeningCount *oc, int kind) {
    const OpeningQuestions *q = oc->q;
    RuleMemo *out = oc->ending.go_out;
    return memo_reads_argument(q->count, 2 + kind) || memo_reads_argument(q->valid, 8 + kind) ||
           memo_reads_argument(q->concealed, 2) || memo_reads_argument(out, 1) ||
           memo_reads_argument(out, 2 + kind);
}

/* The reach of the hand's options (``PointsReach``); 0, or -1 where some card counts negative points (a capped
 * sum could then fall back, so the points are counted exactly). */
static int points_reach(const OpeningCount *oc, PointsReach *r) {
    const OpeningQuestions *q = oc->q;
    int unit = 0, highest = oc->twos_total * q->twos_points + oc->jokers * q->joker_points, bits = 0;
    if (q->twos_points < 0 || q->joker_points < 0) return -1;
    unit = gcd_of(q->twos_points, q->joker_points);
    memset(r, 0, sizeof(*r));
    for (int i = 0; i < oc->rank_count; i++) {
        int most = 0, kinds = 0;
        for (int k = oc->first[i]; k < oc->first[i + 1]; k++) {
            const OpeningOption *o = &oc->options[k];
            if (o->points < 0) return -1;
            most = o->points > most ? o->points : most;
            unit = gcd_of(unit, o->points);
            bits |= o->composition;
            if (o->kind >= 0 && o->kind < 3) kinds |= 1 << o->kind;
        }
        highest += most;
        for (int kind = 0; kind < 3; kind++) r->most[kind] += kinds >> kind & 1;
    }
    for (int kind = 0; kind < 3; kind++)
        if (!kind_read(oc, kind)) r->most[kind] = 0;
    r->compositions = bits, r->highest = highest, r->unit = unit > 0 ? unit : 1;
    return 0;
}

/* The cases a points cap must hold for, at most: beyond them the points are counted exactly. */
#define POINTS_CAP_MOST_CASES 4096

/* The initial meld's verdict on a finished count of points, canastas made (by kind), cards left and composition:
 * an opening's (``opening_meets_minimum``) or a take's (``takes.c``); 1, 0, or -1 with an exception. */
typedef int (*MinimumVerdict)(OpeningCount *oc, int points, const int made[4], int hand_after, int composition);

/* The points from which the initial meld's verdict (``meets``) answers alike up to the most the hand reaches
 * (``r``), for every canastas made, cards left (none, one, more) and composition the hand could give
 * (``legal._points_cap``, asked of each total in steps of the points' common divisor); -1 where the points are
 * counted exactly (too many cases); -2 with an exception. */
static int points_cap_of(OpeningCount *oc, const PointsReach *reach, MinimumVerdict meets) {
    PointsReach r = *reach;
    int cases = (r.most[0] + 1) * (r.most[1] + 1) * (r.most[2] + 1) * 3 * (r.compositions + 1);
    if (cases > POINTS_CAP_MOST_CASES) return -1;
    int cap = 0;
    for (int k0 = 0; k0 <= r.most[0]; k0++)
        for (int k1 = 0; k1 <= r.most[1]; k1++)
            for (int k2 = 0; k2 <= r.most[2]; k2++)
                for (int left = 0; left <= 2; left++)
                    for (int composition = 0; composition <= r.compositions; composition++) {
                        if ((composition & r.compositions) != composition) continue;
                        int made[4] = {k0, k1, k2, 0};
                        int last = meets(oc, r.highest, made, left, composition);
                        if (last < 0) return -2;
                        for (int points = r.highest - r.unit; points >= cap; points -= r.unit) {
                            int answer = meets(oc, points, made, left, composition);
                            if (answer < 0) return -2;
                            if (answer != last) {
                                cap = points + r.unit;
                                break;
                            }
                        }
                    }
    return cap;
}

/* ``points_cap_of`` an opening's verdict over the hand's reach; -1 where the points are counted exactly (negative
 * points too), -2 with an exception. */
static int points_cap(OpeningCount *oc) {
    PointsReach r;
    return points_reach(oc, &r) < 0 ? -1 : points_cap_of(oc, &r, opening_meets_minimum);
}

/* The cards of the hand in none of the counting's options: neither natural cards of a rank with options nor wild
 * cards (``OpeningCaps.base``). */
static int caps_base(const OpeningCount *oc) {
    int in_options = 0;
    for (int i = 0; i < oc->rank_count; i++) in_options += oc->held[i];
    return oc->hand_size - in_options - oc->twos_total - oc->jokers;
}

/* The counting's caps (``OpeningCaps``), once its options and wild cards are known; -1 with an exception. */
static int opening_caps(OpeningCount *oc) {
    OpeningCaps *caps = &oc->caps;
    caps->base = caps_base(oc);
    if ((caps->groups = groups_cap(oc)) < 0 || (caps->left = left_cap(oc)) < -1 || (caps->points = points_cap(oc)) < -1)
        return -1;
    caps->on = 1;
    return 0;
}

static void opening_count_free(OpeningCount *oc) {
    PyMem_Free(oc->options);
    state_table_free(&oc->below), state_table_free(&oc->verdicts);
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

/* ``questions``: (initial_meld.count's memo, initial_meld.valid's, go_out.concealed's, a wild card's points, a
 * joker's points, whether a clause reads what the melds are made of), as ``listing.NativeOpenings`` binds them. */
static int read_opening_questions(PyObject *questions, OpeningQuestions *q) {
    PyObject *count, *valid, *concealed;
    if (!PyArg_ParseTuple(questions, "OOOiip", &count, &valid, &concealed, &q->twos_points, &q->joker_points,
                          &q->reads_composition) ||
        check_recipe(count, "initial_meld.count's memo") < 0 || check_recipe(valid, "initial_meld.valid's memo") < 0 ||
        check_recipe(concealed, "go_out.concealed's memo") < 0)
        return -1;
    q->count = (RuleMemo *)count, q->valid = (RuleMemo *)valid, q->concealed = (RuleMemo *)concealed;
    return 0;
}

/* The counting set up for the seat to act from ``args`` (context, questions, minimum),
 * its openings counted into ``*total`` (0 where action.allowed refuses melding); -1 with an exception. The caller
 * frees ``oc`` (``opening_count_free``) either way. */
static int opening_prepare(Position *self, PyObject *args, OpeningCount *oc, OpeningQuestions *q,
                           PoolBranches *branches, Count *total) {
    PyObject *context, *questions;
    int minimum;
    if (!PyArg_ParseTuple(args, "OO!i", &context, &PyTuple_Type, &questions, &minimum) ||
        read_opening_questions(questions, q) < 0)
        return -1;
    const ListingContext *c = context_with(context, 1, 0);
    if (c == NULL) return -1;
    int seat = self->state.to_act;
    if (self->state.team_opened[self->state.side_of[seat]]) {
        PyErr_Format(PyExc_ValueError, "native core: seat %d's side has opened; its melds are single", seat);
        return -1;
    }
    *oc = (OpeningCount){.q = q, .gates = c->gates, .ending = c->ending, .minimum = minimum,
                         .hand_size = cards_held(self, seat), .judge = opening_judge, .branches = branches,
                         .counted = "openings"};
    gate_flags(self, seat, &oc->gates, &oc->ending);
    table_values_of(self, seat, oc->table);
    memcpy(oc->ending.out_values.table, oc->table, sizeof(oc->table));
    side_kinds(self, self->state.side_of[seat], oc->side_kinds);
    int may_meld = kind_allowed(&oc->gates, seat, KIND_MELD);
    *total = 0;
    if (may_meld <= 0) return may_meld;
    if (opening_wilds(self, seat, oc) < 0 || state_table_alloc(&branches->found, 16) < 0 ||
        state_table_alloc(&oc->below, 256) < 0 ||
        state_table_alloc(&oc->verdicts, 64) < 0 ||
        opening_options(self, seat, &c->shapes, q->reads_composition, -1, 1, oc) < 0 || opening_caps(oc) < 0)
        return -1;
    int32_t start[OS_FIELDS];
    opening_first(oc, start);
    *total = openings_below(oc, start);
    return *total < 0 ? -1 : 0;
}

/* ``opening_count(context, questions, minimum)``: how many openings the seat to act (in play, its side not opened)
 * may lay, as the reference's meld block counts them (``legal._melds``): 0 where hook action.allowed refuses
 * melding, else every choice of valid shapes the verdict accepts, by its cards. ``minimum`` is the side's initial
 * meld minimum (hook initial_meld.minimum, which reads the scores the position does not hold). */
static PyObject *Position_opening_count(Position *self, PyObject *args) {
    OpeningCount oc = {0};
    OpeningQuestions q;
    PoolBranches branches = {0};
    Count total;
    int failed = opening_prepare(self, args, &oc, &q, &branches, &total) < 0;
    opening_count_free(&oc);
    pool_branches_free(&branches);
    return failed ? NULL : count_to_python(total);
}

/* A listing's openings as counted, kept for the actions asked of them later (``opening_at``):
 * every state reached is counted and every verdict kept, so that finding an action asks no rule question again. The
 * memos the counting read stay alive with the listing's context, which its caller keeps. */
typedef struct {
    OpeningCount oc;
    OpeningQuestions q;
    PoolBranches branches;
    Count total;
} KeptOpenings;

#define KEPT_OPENINGS "canasta_ref.core.openings"

static void kept_openings_free(PyObject *capsule) {
    KeptOpenings *kept = PyCapsule_GetPointer(capsule, KEPT_OPENINGS);
    if (kept == NULL) return;
    opening_count_free(&kept->oc);
    pool_branches_free(&kept->branches);
    PyMem_Free(kept);
}

static KeptOpenings *kept_openings_of(PyObject *capsule) {
    KeptOpenings *kept = PyCapsule_GetPointer(capsule, KEPT_OPENINGS);
    if (kept == NULL) PyErr_SetString(PyExc_TypeError, "native core: openings are asked of a listing's kept openings");
    return kept;
}

/* The opening shapes ``chosen`` (an option per rank, -1 for none) as a list of (rank, natural cards, other wild
 * cards, jokers). */
static PyObject *chosen_shapes(const OpeningCount *oc, const int *chosen) {
    PyObject *shapes = PyList_New(0);
    for (int i = 0; shapes != NULL && i < oc->rank_count; i++) {
        if (chosen[i] < 0) continue;
        const OpeningOption *o = &oc->options[oc->first[i] + chosen[i]];
        PyObject *shape = Py_BuildValue("(iiii)", oc->ranks[i], o->naturals, o->twos, o->jokers);
        if (shape == NULL || PyList_Append(shapes, shape) < 0) Py_CLEAR(shapes);
        Py_XDECREF(shape);
    }
    return shapes;
}

/* ``opening_at(kept, index)`` (a module function): the ``index``-th opening of a listing's kept openings in the
 * reference's order, as (its shapes: (rank, natural cards, other wild cards, jokers) in canonical order, its place
 * among the actions of those shapes, in ``movegen.expand_shapes`` order). */
static PyObject *core_opening_at(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *capsule, *number;
    Count index;
    int chosen[MELD_RANKS];
    if (!PyArg_ParseTuple(args, "OO!", &capsule, &PyLong_Type, &number) || count_from_python(number, &index) < 0)
        return NULL;
    KeptOpenings *kept = kept_openings_of(capsule);
    if (kept == NULL) return NULL;
    if (index < 0 || index >= kept->total)
        return index_past("opening", number, kept->total);
    int32_t start[OS_FIELDS];
    opening_first(&kept->oc, start);
    Count place = opening_descend(&kept->oc, start, index, chosen);
    if (place < 0) return NULL;
    return Py_BuildValue("(NN)", chosen_shapes(&kept->oc, chosen), count_to_python(place));
}

/* ``opening_listing(context, questions, minimum)``: the whole listing of the seat to act in play, its side not
 * opened (``legal.listing``), as ``play_listing`` gives it but for its melds: (the number of its openings, their
 * counting kept for ``opening_at`` to make their actions when asked for). */
static PyObject *Position_opening_listing(Position *self, PyObject *args) {
    KeptOpenings *kept = PyMem_Calloc(1, sizeof(KeptOpenings));
    if (kept == NULL) return PyErr_NoMemory();
    PyObject *capsule = NULL;
    if (opening_prepare(self, args, &kept->oc, &kept->q, &kept->branches, &kept->total) == 0)
        capsule = PyCapsule_New(kept, KEPT_OPENINGS, kept_openings_free);
    if (capsule == NULL) {
        opening_count_free(&kept->oc);
        pool_branches_free(&kept->branches);
        PyMem_Free(kept);
        return NULL;
    }
    /* the capsule owns ``kept`` from here, and the listing keeps the capsule */
    const ListingContext *c = (const ListingContext *)PyTuple_GET_ITEM(args, 0); /* checked by the preparing */
    OpeningCount *oc = &kept->oc;
    int may_ask = ask_allowed(&oc->gates, oc->table, self->state.to_act);
    PyObject *openings = may_ask < 0 ? NULL : Py_BuildValue("(NO)", count_to_python(kept->total), capsule);
    PyObject *found = openings == NULL ? NULL
                                       : play_listing_rest(self, c, &oc->gates, &oc->ending, oc->table, may_ask,
                                                           openings, kept->total > 0);
    Py_DECREF(capsule);
    return found;
}

/* ``count_add_product(total, count, weight)`` (a module function): ``total`` plus ``count`` times ``weight`` as the
 * countings add them (``count_add_product``), through the core's count and back: OverflowError past what it holds.
 * What a test reaches the guard by, which no bundled deck's hand reaches. */
static PyObject *core_count_add_product(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *numbers[3];
    Count values[3];
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyLong_Type, &numbers[0], &PyLong_Type, &numbers[1], &PyLong_Type,
                          &numbers[2]))
        return NULL;
    for (int i = 0; i < 3; i++)
        if (count_from_python(numbers[i], &values[i]) < 0) return NULL;
    if (count_add_product(&values[0], values[1], values[2], "actions") < 0) return NULL;
    return count_to_python(values[0]);
}

/* The module's functions on a listing's kept openings (``_core.c``'s ``core_module``). */
static PyMethodDef opening_functions[] = {
    {"opening_at", (PyCFunction)core_opening_at, METH_VARARGS,
     "opening_at(kept, index): (shapes, place) of the index-th of a listing's kept openings"},
    {"count_add_product", (PyCFunction)core_count_add_product, METH_VARARGS,
     "count_add_product(total, count, weight): total + count * weight in the core's count, as its countings add"},
    {NULL, NULL, 0, NULL},
};
