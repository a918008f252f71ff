-- seed 003: the envelope is assigned to `lunkMoney` but read as `luckMoney`.
if redis.call('hexists', KEYS[3], KEYS[4]) == 1 then
    return nil
else
    local lunkMoney = redis.call('rpop', KEYS[1]);
    if luckMoney then
        local data = cjson.decode(luckMoney);
        data['userId'] = KEYS[4];
        local re = cjson.encode(data);
        redis.call('hset', KEYS[3], KEYS[4], 1);
        redis.call('lpush', KEYS[2], re);
        return re;
    end
end
return nil
