"""kombu's Redis transport, with one fix: a worker survives the broker going away mid-task.

With late acknowledgement a prefork worker holds unacknowledged messages. When Redis goes down the
consumer closes the broken connection; closing the channel restores the unacknowledged messages, for
which kombu 5.7.0 builds a new connection pool from `self.connection.client` after the connection
has already dropped its client. That raises `AttributeError: 'NoneType' object has no attribute
'hostname'`, which is not among the transport's connection errors, so Celery treats it as
unrecoverable and the worker exits (reproduced: stop Redis while a task runs; docs/architecture.md,
"Jobs"). Here the missing client is reported as the connection error it is: the consumer ignores
it, reconnects when Redis is back, and the messages stay in Redis' unacknowledged set, from which
kombu restores them after the visibility timeout (the job dispatcher re-sends long before that).
Selected by CELERY_BROKER_TRANSPORT for redis:// and rediss:// URLs (config/settings.py).
"""

from kombu.transport import redis

try:  # redis-py is installed with the Redis transport
    from redis.exceptions import ConnectionError as RedisConnectionError
except ImportError:  # pragma: no cover
    RedisConnectionError = ConnectionError


class Channel(redis.Channel):
    def _connparams(self, asynchronous=False):
        if self.connection.client is None:
            raise RedisConnectionError("the broker connection is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(redis.Transport):
    Channel = Channel
