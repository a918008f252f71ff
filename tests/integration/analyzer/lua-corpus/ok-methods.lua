local Account = {}
Account.__index = Account
function Account.new(balance) return setmetatable({balance = balance}, Account) end
function Account:deposit(v) self.balance = self.balance + v return self end
function Account:get() return self.balance end
return Account.new(10):deposit(5):get()
