#include "CRdKafkaBaseline.h"

#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *message, void *opaque) {
    crdk_baseline_result *result = opaque;
    (void)rk;
    if (message->err) {
        if (result->failed++ == 0)
            snprintf(result->error, sizeof result->error, "%s", rd_kafka_err2str(message->err));
    } else {
        result->delivered++;
    }
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static rd_kafka_t *baseline_producer(const char *bootstrap_servers, crdk_baseline_result *result) {
    static const char *settings[][2] = {
        {"enable.idempotence", "true"}, {"acks", "all"}, {"partitioner", "murmur2_random"},
        {"compression.type", "lz4"},    {"linger.ms", "5"},
    };
    char errstr[256];
    memset(result, 0, sizeof *result);
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap_servers, errstr, sizeof errstr);
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
        rd_kafka_conf_set(conf, settings[i][0], settings[i][1], errstr, sizeof errstr);
    rd_kafka_conf_set_opaque(conf, result);
    rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
    if (!rk) {
        rd_kafka_conf_destroy(conf);
        snprintf(result->error, sizeof result->error, "%s", errstr);
    }
    return rk;
}

int crdk_baseline_produce_records(const char *bootstrap_servers, const char *topic, long count,
                                  const unsigned char *const *keys, const size_t *key_lens,
                                  const unsigned char *const *values, const size_t *value_lens,
                                  crdk_baseline_result *result) {
    rd_kafka_t *rk = baseline_producer(bootstrap_servers, result);
    if (!rk) return -1;
    static const char content_type[] = "application/cloudevents+json";
    double start = now_seconds();
    for (long i = 0; i < count; i++) {
        rd_kafka_resp_err_t err;
        do {
            err = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                    RD_KAFKA_V_KEY((void *)keys[i], key_lens[i]),
                                    RD_KAFKA_V_VALUE((void *)values[i], value_lens[i]),
                                    RD_KAFKA_V_HEADER("content-type", content_type, -1), RD_KAFKA_V_END);
            if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) rd_kafka_poll(rk, 10);
        } while (err == RD_KAFKA_RESP_ERR__QUEUE_FULL);
        if (err) {
            if (result->failed++ == 0) snprintf(result->error, sizeof result->error, "%s", rd_kafka_err2str(err));
        }
        rd_kafka_poll(rk, 0);
    }
    rd_kafka_flush(rk, 120 * 1000);
    result->seconds = now_seconds() - start;
    rd_kafka_destroy(rk);
    return 0;
}

int crdk_baseline_produce(const char *bootstrap_servers, const char *topic, long count,
                          const unsigned char *value, size_t value_len, long key_space,
                          crdk_baseline_result *result) {
    rd_kafka_t *rk = baseline_producer(bootstrap_servers, result);
    if (!rk) return -1;
    static const char content_type[] = "application/cloudevents+json";
    char key[32];
    double start = now_seconds();
    for (long i = 0; i < count; i++) {
        int key_len = snprintf(key, sizeof key, "recipe-%ld", i % key_space);
        rd_kafka_resp_err_t err;
        do {
            err = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                    RD_KAFKA_V_KEY(key, (size_t)key_len),
                                    RD_KAFKA_V_VALUE((void *)value, value_len),
                                    RD_KAFKA_V_HEADER("content-type", content_type, -1), RD_KAFKA_V_END);
            if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) rd_kafka_poll(rk, 10);
        } while (err == RD_KAFKA_RESP_ERR__QUEUE_FULL);
        if (err) {
            if (result->failed++ == 0) snprintf(result->error, sizeof result->error, "%s", rd_kafka_err2str(err));
        }
        rd_kafka_poll(rk, 0);
    }
    rd_kafka_flush(rk, 120 * 1000);
    result->seconds = now_seconds() - start;
    rd_kafka_destroy(rk);
    return 0;
}
