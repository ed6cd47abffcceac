#pragma once
#include <stddef.h>

/// What one raw produce run measured.
typedef struct {
    double seconds;     ///< first produce call to the last delivery report
    long delivered;     ///< delivery reports without error
    long failed;        ///< delivery reports with an error, or records not enqueued
    char error[256];    ///< the first error, if any
} crdk_baseline_result;

/// Produces `count` records straight through librdkafka, the way a plain C
/// program would: the same producer settings as our Swift producer
/// (idempotent, acks=all, murmur2_random, lz4, linger.ms=5), the same keys
/// (`recipe-<i % key_space>`), the same value bytes and one
/// `content-type` header, counting every delivery report.
/// Returns 0, or -1 if the producer could not be created (see `error`).
int crdk_baseline_produce(const char *bootstrap_servers, const char *topic, long count,
                          const unsigned char *value, size_t value_len, long key_space,
                          crdk_baseline_result *result);

/// The same loop over given records (`recipes-bench append`: the commands every
/// other producer of that run sends): record i is keys[i] (key_lens[i] bytes)
/// and values[i] (value_lens[i] bytes), with the same header and settings.
int crdk_baseline_produce_records(const char *bootstrap_servers, const char *topic, long count,
                                  const unsigned char *const *keys, const size_t *key_lens,
                                  const unsigned char *const *values, const size_t *value_lens,
                                  crdk_baseline_result *result);
