/* augur explain fault benchmark: a heating controller for a house of four zones, the
 * golden version. bench/explain-faults.sh makes single-fault versions of it from
 * faults.txt and explains each against this one on its first failing test from pool.txt.
 *
 * Input: ten integers as arguments (zone, measured temperature, target, outside
 * temperature, humidity, occupied, mode, boost request, sensor status, hour).
 * Output: the zone's heating level, the boiler power share and the warnings raised. */
#include <stdio.h>
#include <stdlib.h>

#define NZONES 4
#define HYSTERESIS 2
#define FROST_LIMIT 5
#define MIN_TARGET 12
#define BOOST_STEP 3
#define NIGHT_START 22
#define NIGHT_END 6
#define HUMID_LIMIT 70
#define SENSOR_OK 0
#define SENSOR_STALE 1

enum level { OFF, LOW, MEDIUM, HIGH };

enum mode { MODE_AUTO, MODE_ECO, MODE_COMFORT, MODE_HOLIDAY };

struct zone {
    int limit;   /* highest target the zone accepts */
    int offset;  /* correction of its sensor */
    int weight;  /* its share of the boiler, percent */
    int exposed; /* has outside walls */
};

static struct zone zones[NZONES];
static int power_table[4];
static int mode_shift[4];
static int night_setback;
static int eco_cap;

/* The inputs. */
static int zone_id, temp, target, outside, humidity, occupied, mode, boost_req, sensor,
    hour;

static void init_zones(void)
{
    zones[0].limit = 24;
    zones[0].offset = 0;
    zones[0].weight = 40;
    zones[0].exposed = 1;
    zones[1].limit = 22;
    zones[1].offset = -1;
    zones[1].weight = 25;
    zones[1].exposed = 0;
    zones[2].limit = 26;
    zones[2].offset = 1;
    zones[2].weight = 20;
    zones[2].exposed = 1;
    zones[3].limit = 20;
    zones[3].offset = 0;
    zones[3].weight = 15;
    zones[3].exposed = 0;
}

static void init_tables(void)
{
    power_table[OFF] = 0;
    power_table[LOW] = 30;
    power_table[MEDIUM] = 60;
    power_table[HIGH] = 100;
    mode_shift[MODE_AUTO] = 0;
    mode_shift[MODE_ECO] = -2;
    mode_shift[MODE_COMFORT] = 1;
    mode_shift[MODE_HOLIDAY] = -6;
    night_setback = 3;
    eco_cap = 19;
}

static int is_night(void)
{
    return hour >= NIGHT_START || hour < NIGHT_END;
}

/* The measured temperature corrected by the zone's sensor offset. */
static int corrected_temp(void)
{
    return temp + zones[zone_id].offset;
}

/* The target the zone aims at once mode, night and limits are applied. */
static int effective_target(void)
{
    int t = target + mode_shift[mode];
    if (is_night() && !occupied)
        t = t - night_setback;
    if (mode == MODE_ECO && t > eco_cap)
        t = eco_cap;
    if (t > zones[zone_id].limit)
        t = zones[zone_id].limit;
    if (t < MIN_TARGET)
        t = MIN_TARGET;
    return t;
}

/* Is there a risk of frost (cold outside, and an exposed or unheated zone)? */
static int frost_risk(int t)
{
    if (outside > FROST_LIMIT)
        return 0;
    return zones[zone_id].exposed || t < FROST_LIMIT + 3;
}

/* How many degrees below its target the zone is (0 when warm enough). */
static int deficit(int t, int goal)
{
    if (t + HYSTERESIS > goal)
        return 0;
    return goal - t;
}

/* The heating level for a deficit of `d` degrees. */
static int level_for(int d)
{
    if (d == 0)
        return OFF;
    if (d <= 2)
        return LOW;
    if (d <= 5)
        return MEDIUM;
    return HIGH;
}

/* A boost raises the level by one step when asked for and allowed. */
static int boosted(int level, int t)
{
    if (!boost_req || mode == MODE_HOLIDAY)
        return level;
    if (level < HIGH && t < target + BOOST_STEP)
        return level + 1;
    return level;
}

/* The level is lowered when the sensor reading cannot be trusted. */
static int trusted(int level)
{
    if (sensor == SENSOR_OK)
        return level;
    if (sensor == SENSOR_STALE && level > LOW)
        return LOW;
    if (sensor != SENSOR_STALE)
        return OFF;
    return level;
}

/* The share of the boiler the zone asks for, percent. */
static int boiler_share(int level)
{
    int share = power_table[level] * zones[zone_id].weight / 100;
    if (zones[zone_id].exposed && outside < 0)
        share = share + share / 4;
    if (share > 100)
        share = 100;
    return share;
}

/* Damp rooms are ventilated: warn when humid and not heated enough to dry. */
static int damp_warning(int level)
{
    return humidity > HUMID_LIMIT && (!occupied || (occupied && level < MEDIUM));
}

static int read_inputs(int argc, char **argv)
{
    if (argc != 11)
        return 0;
    zone_id = atoi(argv[1]);
    temp = atoi(argv[2]);
    target = atoi(argv[3]);
    outside = atoi(argv[4]);
    humidity = atoi(argv[5]);
    occupied = atoi(argv[6]);
    mode = atoi(argv[7]);
    boost_req = atoi(argv[8]);
    sensor = atoi(argv[9]);
    hour = atoi(argv[10]);
    if (zone_id < 0 || zone_id >= NZONES)
        return 0;
    if (mode < MODE_AUTO || mode > MODE_HOLIDAY)
        return 0;
    return hour >= 0 && hour < 24;
}

int main(int argc, char **argv)
{
    if (!read_inputs(argc, argv)) {
        printf("usage: heat zone temp target outside humidity occupied mode boost sensor hour\n");
        return 2;
    }
    init_zones();
    init_tables();
    int t = corrected_temp();
    int goal = effective_target();
    int level = level_for(deficit(t, goal));
    if (frost_risk(t) && level < MEDIUM)
        level = MEDIUM;
    level = boosted(level, t);
    level = trusted(level);
    int share = boiler_share(level);
    printf("zone %d goal %d level %d share %d\n", zone_id, goal, level, share);
    if (damp_warning(level))
        printf("warning: damp\n");
    if (frost_risk(t))
        printf("warning: frost\n");
    return 0;
}
