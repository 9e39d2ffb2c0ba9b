/*
 * fault_support.c - the fleet, the fault-tolerant client, driven games and their check
 * against the event store (see fault_support.h).
 *
 * The client opens a new connection per request (a kept-alive connection to a server that
 * was just killed would only add one more failure) and never asserts: the caller decides
 * what an answer means. Every loop here is bounded by a count and a deadline.
 */
#include "tests/faults/fault_support.h"

#include <check.h>
#include <ctype.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "game/game_repo.h"
#include "db/store.h"

#define FAULT_FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

/* ---- Fleet ------------------------------------------------------------------------------- */

void fault_fleet_start(struct fault_fleet *fleet, int count, const char *const *settings)
{
	ck_assert(count >= 1 && count <= FAULT_MAX_SERVERS);
	memset(fleet, 0, sizeof *fleet);
	pthread_mutex_init(&fleet->lock, NULL);
	fleet->settings = settings;
	for (int i = 0; i < count; i++)
		http_server_start(&fleet->servers[i], settings);
	fleet->count = count;
}

void fault_fleet_stop(struct fault_fleet *fleet)
{
	for (int i = 0; i < fleet->count; i++)
		http_server_stop(&fleet->servers[i], 30);
	fleet->count = 0;
	pthread_mutex_destroy(&fleet->lock);
}

const char *fault_fleet_url(struct fault_fleet *fleet, int index, char *out, size_t size)
{
	pthread_mutex_lock(&fleet->lock);
	if (index < 0)
		index = (int)(http_random64() % (uint64_t)fleet->count);
	snprintf(out, size, "%s", fleet->servers[index].url);
	pthread_mutex_unlock(&fleet->lock);
	return out;
}

void fault_fleet_kill_and_restart(struct fault_fleet *fleet, int index)
{
	/* Killed under the lock is fine (no waiting on the clients); the new server starts
	 * outside it, and clients keep the old URL until then (their requests fail and are
	 * retried). */
	pthread_mutex_lock(&fleet->lock);
	struct http_server victim = fleet->servers[index];
	pthread_mutex_unlock(&fleet->lock);
	http_server_kill(&victim);
	fleet->kills++;
	struct http_server fresh;
	http_server_start(&fresh, fleet->settings);
	pthread_mutex_lock(&fleet->lock);
	fleet->servers[index] = fresh;
	pthread_mutex_unlock(&fleet->lock);
	fleet->restarts++;
}

/* ---- HAProxy ------------------------------------------------------------------------------ */

static const char *haproxy_program(void)
{
	static const char *const candidates[] = {"/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"};
	for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
		if (access(candidates[i], X_OK) == 0)
			return candidates[i];
	return NULL;
}

int fault_haproxy_available(void)
{
	return haproxy_program() != NULL;
}

static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert(fd >= 0);
	struct sockaddr_in address;
	memset(&address, 0, sizeof address);
	address.sin_family = AF_INET;
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert(bind(fd, (struct sockaddr *)&address, sizeof address) == 0);
	socklen_t length = sizeof address;
	ck_assert(getsockname(fd, (struct sockaddr *)&address, &length) == 0);
	close(fd);
	return ntohs(address.sin_port);
}

void fault_haproxy_start(struct fault_haproxy *haproxy, struct fault_fleet *fleet)
{
	memset(haproxy, 0, sizeof *haproxy);
	const char *program = haproxy_program();
	ck_assert_msg(program != NULL, "haproxy is not installed");
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	haproxy->port = free_port();
	snprintf(haproxy->url, sizeof haproxy->url, "http://127.0.0.1:%d", haproxy->port);
	snprintf(haproxy->config_path, sizeof haproxy->config_path, "%s/catan-haproxy-%ld-%d.cfg", tmp, (long)getpid(),
		 haproxy->port);
	snprintf(haproxy->log_path, sizeof haproxy->log_path, "%s/catan-haproxy-%ld-%d.log", tmp, (long)getpid(),
		 haproxy->port);
	FILE *config = fopen(haproxy->config_path, "w");
	ck_assert_msg(config != NULL, "%s", haproxy->config_path);
	/* The recipe of README.md ("Running several servers"). */
	fprintf(config,
		"global\n"
		"\tmaxconn 4000\n"
		"defaults\n"
		"\tmode http\n"
		"\ttimeout connect 2s\n"
		"\ttimeout client 90s\n"
		"\ttimeout server 90s\n"
		"\ttimeout http-request 10s\n"
		"\ttimeout queue 10s\n"
		"\tretries 3\n"
		"\toption redispatch 1\n"
		"\toption forwardfor\n"
		"frontend catan\n"
		"\tbind 127.0.0.1:%d\n"
		"\tdefault_backend catan_servers\n"
		"backend catan_servers\n"
		"\tbalance roundrobin\n"
		"\toption httpchk GET /healthz\n"
		"\thttp-check expect status 200\n"
		"\tdefault-server inter 500ms fall 2 rise 2\n"
		"\toption http-buffer-request\n"
		"\tretry-on conn-failure empty-response response-timeout 503\n"
		"\thttp-request disable-l7-retry if METH_POST !{ req.hdr(idempotency-key) -m found }\n",
		haproxy->port);
	pthread_mutex_lock(&fleet->lock);
	for (int i = 0; i < fleet->count; i++)
		fprintf(config, "\tserver catan%d 127.0.0.1:%d check\n", i + 1, fleet->servers[i].port);
	pthread_mutex_unlock(&fleet->lock);
	fclose(config);

	int log_fd = open(haproxy->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert(log_fd >= 0);
	pid_t parent = getpid();
	haproxy->pid = fork();
	ck_assert(haproxy->pid >= 0);
	if (haproxy->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		setpgid(0, 0);
		dup2(log_fd, 1);
		dup2(log_fd, 2);
		execl(program, "haproxy", "-db", "-f", haproxy->config_path, (char *)NULL);
		_exit(127);
	}
	close(log_fd);
	/* Up when it answers /healthz through a server that passed its checks. */
	double deadline = http_clock() + 30 * http_slowdown();
	for (int attempt = 0; attempt < 1000; attempt++) {
		int status;
		if (waitpid(haproxy->pid, &status, WNOHANG) == haproxy->pid) {
			char tail[2048];
			http_log_tail(haproxy->log_path, tail, sizeof tail);
			haproxy->pid = 0;
			ck_abort_msg("haproxy exited (%d); its log %s ends:\n%s", status, haproxy->log_path, tail);
		}
		struct fault_answer answer;
		fault_request(haproxy->url, "GET", "/healthz", NULL, NULL, NULL, 2, &answer);
		long got = answer.status;
		fault_answer_free(&answer);
		if (got == 200)
			return;
		ck_assert_msg(http_clock() < deadline, "haproxy did not answer /healthz within 30 s (log %s)",
			      haproxy->log_path);
		http_pause(0.05);
	}
	ck_abort_msg("haproxy did not answer /healthz");
}

void fault_haproxy_stop(struct fault_haproxy *haproxy)
{
	if (haproxy->pid <= 0)
		return;
	http_process_stop(haproxy->pid, 10);
	haproxy->pid = 0;
	unlink(haproxy->config_path);
}

/* ---- Client -------------------------------------------------------------------------------- */

struct text {
	char *data;
	size_t size;
};

static size_t on_data(char *data, size_t size, size_t count, void *user)
{
	struct text *text = user;
	size_t n = size * count;
	char *grown = realloc(text->data, text->size + n + 1);
	if (!grown)
		abort();
	text->data = grown;
	memcpy(text->data + text->size, data, n);
	text->size += n;
	text->data[text->size] = '\0';
	return n;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void curl_start(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

static void request_from(const char *source, const char *base, const char *method, const char *path, const char *token,
			 const char *body, const char *const *headers, double timeout_s, struct fault_answer *out);

void fault_request(const char *base, const char *method, const char *path, const char *token, const char *body,
		   const char *const *headers, double timeout_s, struct fault_answer *out)
{
	request_from(NULL, base, method, path, token, body, headers, timeout_s, out);
}

void fault_request_from(const char *source, const char *base, const char *method, const char *path, const char *token,
			const char *body, const char *const *headers, double timeout_s, struct fault_answer *out)
{
	request_from(source, base, method, path, token, body, headers, timeout_s, out);
}

static void request_from(const char *source, const char *base, const char *method, const char *path, const char *token,
			 const char *body, const char *const *headers, double timeout_s, struct fault_answer *out)
{
	pthread_once(&curl_once, curl_start);
	memset(out, 0, sizeof *out);
	CURL *curl = curl_easy_init();
	if (!curl)
		abort();
	char url[512], authorization[128];
	snprintf(url, sizeof url, "%s%s", base, path);
	struct curl_slist *list = NULL;
	if (token) {
		snprintf(authorization, sizeof authorization, "Authorization: Bearer %s", token);
		list = curl_slist_append(list, authorization);
	}
	if (body)
		list = curl_slist_append(list, "Content-Type: application/json");
	for (size_t i = 0; headers && headers[i]; i++)
		list = curl_slist_append(list, headers[i]);
	struct text received = {0}, header_text = {0};
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
	if (body) {
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	}
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &received);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_data);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, &header_text);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)(timeout_s * 1000));
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_FORBID_REUSE, 1L);
	if (source)
		curl_easy_setopt(curl, CURLOPT_INTERFACE, source);
	if (curl_easy_perform(curl) == CURLE_OK)
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
	out->body = received.data ? received.data : strdup("");
	/* Header names in any case: HAProxy sends them in lower case. */
	for (char *c = header_text.data; c && *c; c++)
		*c = (char)tolower((unsigned char)*c);
	out->replayed = header_text.data && strstr(header_text.data, "idempotent-replayed: true") != NULL;
	out->retry_after = header_text.data && strstr(header_text.data, "\nretry-after: ") != NULL;
	free(header_text.data);
	curl_slist_free_all(list);
	curl_easy_cleanup(curl);
}

void fault_answer_free(struct fault_answer *answer)
{
	free(answer->body);
	answer->body = NULL;
}

/* ---- Driven games --------------------------------------------------------------------------- */

const char *fault_move_body(int move, int *seat)
{
	*seat = (move / 2) % 3;
	return move % 2 ? "{\"type\": \"end_turn\"}" : "{\"type\": \"roll\", \"dice\": [2, 3]}";
}

void fault_game_create(struct fault_game *game, fault_pick_url pick, void *context)
{
	memset(game, 0, sizeof *game);
	game->salt = http_random64();
	const char *body = "{\"seats\": 3, \"options\": " FAULT_FIXED_START "}";
	double deadline = http_clock() + 60 * http_slowdown();
	for (int attempt = 0; attempt < 1000 && http_clock() < deadline; attempt++) {
		char base[64];
		struct fault_answer answer;
		fault_request(pick(context, base, sizeof base), "POST", "/v1/games", NULL, body, NULL, 15, &answer);
		if (answer.status == 201) {
			json_t *created = json_loads(answer.body, 0, NULL);
			ck_assert_msg(created != NULL, "POST /v1/games: %s", answer.body);
			snprintf(game->game.id, sizeof game->game.id, "%s",
				 json_string_value(json_object_get(created, "id")));
			snprintf(game->game.path, sizeof game->game.path, "/v1/games/%s", game->game.id);
			snprintf(game->game.admin_token, sizeof game->game.admin_token, "%s",
				 json_string_value(json_object_get(created, "admin_token")));
			json_t *seats = json_object_get(created, "seats");
			game->game.seats = 3;
			for (int s = 0; s < 3; s++) {
				const char *token =
					json_string_value(json_object_get(json_array_get(seats, (size_t)s), "token"));
				snprintf(game->game.tokens[s], sizeof game->game.tokens[s], "%s", token ? token : "");
			}
			game->start_version = (long)json_integer_value(json_object_get(created, "version"));
			json_decref(created);
			fault_answer_free(&answer);
			ck_assert_msg(game->game.tokens[2][0] && game->start_version > 0, "a created game: %s",
				      game->game.id);
			return;
		}
		fault_answer_free(&answer);
		http_pause(0.1);
	}
	ck_abort_msg("no game could be created within 60 s");
}

int fault_game_record(struct fault_game *game, int move, const char *body)
{
	json_t *answer = json_loads(body, 0, NULL);
	/* The move's own first event (a provably fair game's first roll fixes the players'
	 * seeds in an event just before it). */
	json_t *first = http_first_rules_event(json_object_get(answer, "events"));
	int ok = first && json_is_integer(json_object_get(first, "version")) && game->ack_count < FAULT_MAX_MOVES;
	if (ok) {
		struct fault_ack *ack = &game->acks[game->ack_count++];
		ack->move = move;
		ack->version = (long)json_integer_value(json_object_get(first, "version"));
		snprintf(ack->type, sizeof ack->type, "%s", json_string_value(json_object_get(first, "type")));
		ack->at = http_clock();
	}
	json_decref(answer);
	return ok;
}

__attribute__((format(printf, 2, 3))) static void say_failure(struct fault_game *game, const char *format, ...)
{
	if (game->failure[0])
		return;
	va_list args;
	va_start(args, format);
	vsnprintf(game->failure, sizeof game->failure, format, args);
	va_end(args);
}

int fault_game_step(struct fault_game *game, fault_pick_url pick, void *context, int check_replay, double timeout_s)
{
	int move = game->moves;
	int seat;
	const char *body = fault_move_body(move, &seat);
	char key[96], path[96];
	snprintf(key, sizeof key, "Idempotency-Key: %016llx-%d", (unsigned long long)game->salt, move);
	snprintf(path, sizeof path, "%s/moves", game->game.path);
	const char *headers[] = {key, NULL};
	struct fault_answer first = {0};
	double deadline = http_clock() + timeout_s;
	int answers = 0;
	for (int attempt = 0; attempt < 10000 && http_clock() < deadline && answers < 1 + (check_replay != 0);
	     attempt++) {
		char base[64];
		struct fault_answer answer;
		fault_request(pick(context, base, sizeof base), "POST", path, game->game.tokens[seat], body, headers,
			      15, &answer);
		if (answer.status == 0 || answer.status == 502 || answer.status == 503 || answer.status == 504 ||
		    answer.status == 409 || answer.status == 429) {
			if (answer.status == 0)
				game->transport_failures++;
			else if (answer.status == 503) {
				if (game->unavailable < FAULT_MAX_UNAVAILABLE)
					game->unavailable_at[game->unavailable] = http_clock();
				game->unavailable++;
				game->unavailable_without_retry_after += !answer.retry_after;
			} else
				game->other_retries++;
			fault_answer_free(&answer);
			http_pause(0.05);
			continue;
		}
		if (answers++ == 0) {
			first = answer;
			continue;
		}
		game->replays_checked++;
		if (answer.status != first.status || strcmp(answer.body, first.body) != 0)
			say_failure(game, "game %s, move %d: one key, two answers: %ld %.200s ... then %ld %.200s",
				    game->game.id, move, first.status, first.body, answer.status, answer.body);
		else if (!answer.replayed)
			say_failure(game, "game %s, move %d: a repeated key was not a replay", game->game.id, move);
		fault_answer_free(&answer);
	}
	if (answers == 0) {
		say_failure(game, "game %s: move %d had no answer within %.0f s", game->game.id, move, timeout_s);
		return 0;
	}
	int acknowledged = first.status == 201;
	if (acknowledged) {
		if (fault_game_record(game, move, first.body))
			game->moves++;
		else
			say_failure(game, "game %s: a 201 without events: %.300s", game->game.id, first.body);
	} else {
		say_failure(game, "game %s: move %d refused: %ld %.300s", game->game.id, move, first.status,
			    first.body);
	}
	fault_answer_free(&first);
	return acknowledged && !game->failure[0];
}

long fault_game_verify(const struct fault_game *game)
{
	ck_assert_msg(!game->failure[0], "%s", game->failure);
	/* The log, read with a check that seq runs 1, 2, 3 ... without a gap. */
	json_t *events = http_truth_events(game->game.id, 0);
	long count = (long)json_array_size(events);
	/* It replays from the first event to the state the server loads (snapshot + tail). */
	int64_t id;
	ck_assert(store_parse_id(game->game.id, &id));
	struct store *store;
	ck_assert_int_eq(store_open(getenv("DATABASE_URL"), &store), STORE_OK);
	struct game_repo repo;
	game_repo_init(&repo, store, 0);
	static struct game loaded, replayed; /* a few KB each; one verifier at a time */
	ck_assert_msg(game_repo_load(&repo, id, &loaded, NULL) == STORE_OK, "load %s: %s", game->game.id,
		      game_repo_message(&repo));
	ck_assert_int_eq((long)loaded.version, count);
	ck_assert_msg(game_repo_load_at(&repo, id, (int32_t)count, &replayed) == STORE_OK, "replay %s: %s",
		      game->game.id, game_repo_message(&repo));
	ck_assert_msg(memcmp(&loaded, &replayed, sizeof loaded) == 0,
		      "game %s: the replayed state differs from the loaded one", game->game.id);
	store_close(store);
	/* Every acknowledged move is in the log, once, where its answer said. */
	char *claimed = calloc((size_t)count + 2, 1);
	ck_assert(claimed != NULL);
	for (int i = 0; i < game->ack_count; i++) {
		const struct fault_ack *ack = &game->acks[i];
		ck_assert_msg(ack->version > game->start_version && ack->version <= count,
			      "game %s: move %d acknowledged at version %ld, the log ends at %ld", game->game.id,
			      ack->move, ack->version, count);
		ck_assert_msg(!claimed[ack->version], "game %s: version %ld acknowledged twice", game->game.id,
			      ack->version);
		claimed[ack->version] = 1;
		json_t *event = json_array_get(events, (size_t)ack->version - 1);
		const char *type = json_string_value(json_object_get(event, "type"));
		ck_assert_msg(type && strcmp(type, ack->type) == 0, "game %s: version %ld is %s, acknowledged as %s",
			      game->game.id, ack->version, type ? type : "?", ack->type);
	}
	/* ... and every move in the log was acknowledged (none applied twice or unanswered). */
	for (long version = game->start_version + 1; version <= count; version++) {
		const char *type =
			json_string_value(json_object_get(json_array_get(events, (size_t)version - 1), "type"));
		if (type && (strcmp(type, "dice_rolled") == 0 || strcmp(type, "turn_ended") == 0))
			ck_assert_msg(claimed[version], "game %s: %s at version %ld was never acknowledged",
				      game->game.id, type, version);
	}
	free(claimed);
	json_decref(events);
	return count;
}
